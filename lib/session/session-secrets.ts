import 'server-only';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, env, type Env } from '../config/env';

export const SESSION_SECRET_FILE = 'session-secret';

/**
 * The secrets that seal console cookies, newest first: the first seals, all unseal.
 *
 * From SESSION_SECRET when set. Otherwise, for the embedded database only, one is
 * generated on first start and kept beside it (mode 0600), so a plain start needs
 * no set-up. Several instances behind one address (DATABASE_URL) must share one
 * secret, which a per-machine file cannot give them: there it must be set.
 */
export function resolveSessionSecrets(settings: Pick<Env, 'SESSION_SECRET' | 'DATABASE_URL' | 'DATA_DIR'>): string[] {
  if (settings.SESSION_SECRET) return settings.SESSION_SECRET.split(',').map((s) => s.trim());
  if (settings.DATABASE_URL) {
    throw new ConfigError(
      'SESSION_SECRET must be set when DATABASE_URL is set: every instance behind one address must seal the\n' +
        'console cookie with the same secret. Generate one with `openssl rand -base64 32` and set it on every instance.',
    );
  }
  return [readOrCreateSecretFile(path.resolve(settings.DATA_DIR, SESSION_SECRET_FILE))];
}

function readOrCreateSecretFile(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // 'wx' fails when the file exists, so two processes starting together keep one secret.
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Tighten a copy restored with looser permissions: nobody but the owner may read it.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new ConfigError(`${file} holds a session secret shorter than 32 characters. Delete it to generate a new one.`);
  return secret;
}

let cached: string[] | undefined;

/** The process's session secrets, resolved once (at start-up, from instrumentation). */
export function sessionSecrets(): string[] {
  cached ??= resolveSessionSecrets(env());
  return cached;
}
