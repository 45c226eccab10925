import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './env';

/** The secret files the server generates in DATA_DIR on the embedded database (a setting replaces each); a backup carries them. */
export const SEALING_KEY_FILE = 'secrets-encryption-key';
export const SESSION_SECRET_FILE = 'session-secret';

/**
 * A secret generated on first start and kept beside the embedded database (mode
 * 0600), so that a plain start needs no set-up. `bytes` random bytes, base64url.
 */
export function readOrCreateSecretFile(file: string, what: string, bytes = 32): string {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // 'wx' fails when the file exists, so two processes starting together keep one secret.
    fs.writeFileSync(file, randomBytes(bytes).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Tighten a copy restored with looser permissions: nobody but the owner may read it.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new ConfigError(`${file} holds a ${what} shorter than 32 characters. Delete it to generate a new one.`);
  return secret;
}
