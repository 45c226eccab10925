import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import type { SecretBox } from '../pipeline/core-settings';

const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/**
 * Seals webhook signing secrets for storage (AES-256-GCM). They must be usable
 * to sign, so they cannot be hashed like API keys; the database holds only
 * ciphertext, and the keys that open it live outside the database
 * (SECRETS_ENCRYPTION_KEY, or a file beside the embedded database).
 *
 * Several keys, newest first: the first seals, each unseals what it sealed (the
 * sealed value names its key), so a new key is added in front and the old one
 * dropped once nothing sealed with it is left. The shape it has is the core's (pipeline/core-settings.ts).
 */
export function createSecretBox(keys: Buffer[]): SecretBox {
  if (keys.length === 0 || keys.some((k) => k.length !== 32)) throw new Error('secret box: every key must be 32 bytes');
  const byId = new Map(keys.map((k) => [keyId(k), k]));
  const [current] = keys as [Buffer];
  const currentId = keyId(current);
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `v1.${currentId}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    digest(purpose, value) {
      return createHmac('sha256', current).update(`${purpose}\0${value}`).digest('base64url');
    },
    open(sealed) {
      const [version, id, iv, body] = sealed.split('.');
      const key = id ? byId.get(id) : undefined;
      if (version !== 'v1' || !key || !iv || !body) throw new Error(`secret box: cannot open a value sealed with key ${id ?? '?'}`);
      const data = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(data.subarray(data.length - 16));
      return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
    },
  };
}

/** Keys from their text form: base64 or base64url of 32 bytes, comma-separated, newest first. */
export function parseSealingKeys(text: string): Buffer[] {
  return text.split(',').map((part) => {
    const key = Buffer.from(part.trim(), 'base64');
    if (key.length !== 32) throw new Error('every key must be 32 bytes, base64-encoded (openssl rand -base64 32)');
    return key;
  });
}
