// The parts of webhook delivery that are rules: which addresses may be called, when to retry, how secrets are sealed.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusalOf } from '@/lib/payments/webhooks/address-guard';
import { DEFAULT_RETRY_DELAYS_SECONDS, nextDelaySeconds } from '@/lib/payments/webhooks/retry-schedule';
import { createSecretBox } from '@/lib/payments/webhooks/secret-box';
import { SEALING_KEY_FILE } from '@/lib/config/secret-file';
import { resolveSealingKeys } from '@/lib/server/sealing-keys';
import { parseEnv } from '@/lib/config/env';

describe('webhook addresses', () => {
  it.each([
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['0.0.0.0', 'link-local'],
    ['224.0.0.1', 'link-local'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
  ])('refuses %s (%s)', (address, kind) => {
    expect(refusalOf(address, false)).toMatch(kind === 'private' ? /private network/ : /link-local/);
  });

  it('allows private ranges only when told to, and link-local never', () => {
    expect(refusalOf('10.0.0.1', true)).toBeUndefined();
    expect(refusalOf('fd12:3456::1', true)).toBeUndefined();
    expect(refusalOf('169.254.169.254', true)).toMatch(/link-local/);
    expect(refusalOf('fe80::abcd', true)).toMatch(/link-local/);
  });

  it.each(['127.0.0.1', '127.8.9.10', '::1', '8.8.8.8', '172.32.0.1', '2606:4700::1111'])('allows %s', (address) => {
    expect(refusalOf(address, false)).toBeUndefined();
  });
});

describe('webhook retry schedule', () => {
  it('follows the Standard Webhooks schedule after the first attempt, stretched by at most 10%', () => {
    expect(DEFAULT_RETRY_DELAYS_SECONDS).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    expect(nextDelaySeconds(DEFAULT_RETRY_DELAYS_SECONDS, 1, { random: () => 0 })).toBe(5);
    expect(nextDelaySeconds(DEFAULT_RETRY_DELAYS_SECONDS, 1, { random: () => 0.999 })).toBeCloseTo(5.4995);
    expect(nextDelaySeconds(DEFAULT_RETRY_DELAYS_SECONDS, 9, { random: () => 0 })).toBe(86400);
    expect(nextDelaySeconds(DEFAULT_RETRY_DELAYS_SECONDS, 10)).toBeUndefined(); // ten attempts in all
  });

  it('honours a longer Retry-After on 429 and 503 only', () => {
    const at = (status: number, retryAfterSeconds: number) => nextDelaySeconds([5], 1, { status, retryAfterSeconds, random: () => 0 });
    expect(at(429, 60)).toBe(60);
    expect(at(503, 60)).toBe(60);
    expect(at(503, 1)).toBe(5);
    expect(at(500, 60)).toBe(5);
  });

  it('reads the schedule from WEBHOOK_RETRY_DELAYS_SECONDS and refuses a malformed one', () => {
    expect(parseEnv({ WEBHOOK_RETRY_DELAYS_SECONDS: '1, 2.5,60' }).WEBHOOK_RETRY_DELAYS_SECONDS).toEqual([1, 2.5, 60]);
    expect(() => parseEnv({ WEBHOOK_RETRY_DELAYS_SECONDS: '5,soon' })).toThrow(/WEBHOOK_RETRY_DELAYS_SECONDS/);
  });
});

describe('sealed webhook secrets', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;

  it('seals so that the sealed text reveals nothing, and opens with the key that sealed', () => {
    const box = createSecretBox([randomBytes(32)]);
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(box.seal(secret)).not.toBe(sealed); // a fresh IV each time
    expect(box.open(sealed)).toBe(secret);
  });

  it('refuses a tampered value, and one sealed with an unknown key', () => {
    const key = randomBytes(32);
    const box = createSecretBox([key]);
    const sealed = box.seal(secret);
    const flipped = sealed.slice(0, -3) + (sealed.at(-3) === 'A' ? 'B' : 'A') + sealed.slice(-2);
    expect(() => box.open(flipped)).toThrow();
    expect(() => createSecretBox([randomBytes(32)]).open(sealed)).toThrow(/cannot open/);
  });

  it('rotates: a new key in front seals, the old one still opens what it sealed', () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const before = createSecretBox([oldKey]).seal(secret);
    const rotated = createSecretBox([newKey, oldKey]);
    expect(rotated.open(before)).toBe(secret);
    expect(createSecretBox([newKey]).open(rotated.seal(secret))).toBe(secret);
  });

  it('keeps a generated key beside the embedded database, owner-only, and requires one with DATABASE_URL', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealing-'));
    const first = resolveSealingKeys({ DATA_DIR: dir });
    expect(first[0]).toHaveLength(32);
    expect(fs.statSync(path.join(dir, SEALING_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(resolveSealingKeys({ DATA_DIR: dir })[0]!.equals(first[0]!)).toBe(true);
    expect(() => resolveSealingKeys({ DATA_DIR: dir, DATABASE_URL: 'postgres://x/y' })).toThrow(/SECRETS_ENCRYPTION_KEY must be set/);
    const key = randomBytes(32).toString('base64');
    expect(resolveSealingKeys({ DATA_DIR: dir, DATABASE_URL: 'postgres://x/y', SECRETS_ENCRYPTION_KEY: key })[0]!.toString('base64')).toBe(
      key,
    );
    expect(() => parseEnv({ SECRETS_ENCRYPTION_KEY: 'c2hvcnQ=' })).toThrow(/SECRETS_ENCRYPTION_KEY/);
  });
});
