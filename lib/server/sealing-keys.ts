import path from 'node:path';
import { ConfigError, type Env } from '../config/env';
import { readOrCreateSecretFile, SEALING_KEY_FILE } from '../config/secret-file';
import { parseSealingKeys } from '../payments/webhooks/secret-box';
import { SEALING_KEY_REQUIRED } from '../config/start-checks';

/**
 * The keys that seal webhook secrets, newest first. From SECRETS_ENCRYPTION_KEY;
 * on the embedded database, generated on first start beside it (mode 0600). Several
 * instances on one PostgreSQL must open each other's secrets, which a
 * per-machine file cannot give them: there it must be set.
 */
export function resolveSealingKeys(settings: Pick<Env, 'SECRETS_ENCRYPTION_KEY' | 'DATABASE_URL' | 'DATA_DIR'>): Buffer[] {
  if (settings.SECRETS_ENCRYPTION_KEY) return parseSealingKeys(settings.SECRETS_ENCRYPTION_KEY);
  if (settings.DATABASE_URL) {
    throw new ConfigError(SEALING_KEY_REQUIRED);
  }
  const file = path.resolve(settings.DATA_DIR, SEALING_KEY_FILE);
  return parseSealingKeys(Buffer.from(readOrCreateSecretFile(file, 'secrets encryption key'), 'base64url').toString('base64'));
}
