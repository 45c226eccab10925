import 'server-only';
import path from 'node:path';
import { ConfigError, env, type Env } from '../../../lib/config/env';
import { readOrCreateSecretFile, SESSION_SECRET_FILE } from '../../../lib/config/secret-file';
import { consoleStoreIsShared, SESSION_SECRET_REQUIRED } from '../../../lib/config/start-checks';

/**
 * The secrets that seal console cookies, newest first: the first seals, all unseal.
 *
 * From SESSION_SECRET when set. Otherwise, for the embedded database only, one is
 * generated on first start and kept beside it (mode 0600), so a plain start needs
 * no set-up. Several instances behind one address (DATABASE_URL, CONSOLE_DATABASE_URL) must share one
 * secret, which a per-machine file cannot give them: there it must be set.
 */
export function resolveSessionSecrets(
  settings: Pick<Env, 'SESSION_SECRET' | 'DATABASE_URL' | 'DATA_DIR'> & Partial<Pick<Env, 'CONSOLE_DATABASE_URL'>>,
): string[] {
  if (settings.SESSION_SECRET) return settings.SESSION_SECRET.split(',').map((s) => s.trim());
  if (consoleStoreIsShared(settings)) throw new ConfigError(SESSION_SECRET_REQUIRED);
  return [readOrCreateSecretFile(path.resolve(settings.DATA_DIR, SESSION_SECRET_FILE), 'session secret')];
}

let cached: string[] | undefined;

/** The process's session secrets, resolved once (at start-up, from instrumentation). */
export function sessionSecrets(): string[] {
  cached ??= resolveSessionSecrets(env());
  return cached;
}
