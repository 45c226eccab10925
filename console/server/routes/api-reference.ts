import fs from 'node:fs/promises';
import path from 'node:path';

/** Where the console serves Redoc's bundle (same origin, so the page's CSP needs no other host). */
export const REDOC_PATH = '/docs/api/redoc.standalone.js';

let bundle: Promise<string> | undefined;

/** The one remote address in the bundle: the sidebar's Redocly logo, which the page's CSP would block anyway. */
const REMOTE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

/**
 * Redoc's standalone bundle as installed from npm (`redoc`), read once per process,
 * with its logo's CDN address made an empty data URL (Redoc then hides the image), so
 * the page asks no other host for anything.
 */
export function redocBundle(): Promise<string> {
  bundle ??= fs
    .readFile(path.join(process.cwd(), 'node_modules', 'redoc', 'bundles', 'redoc.standalone.js'), 'utf8')
    .then((js) => js.replaceAll(REMOTE_LOGO, 'data:,'));
  return bundle;
}
