import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '@/lib/config/env';
import type { Db } from '@/lib/db/types';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { seal, unseal } from '@/console/server/session/session-seal';
import { SESSION_SECRET_FILE } from '@/lib/config/secret-file';
import { resolveSessionSecrets } from '@/console/server/session/session-secrets';
import { createSessionRecord, findLiveSession, revokeMerchantSessions, revokeSession } from '@/console/server/session/session-store';
import { pgliteBackend } from '../../testing/databases';

const A = 'a'.repeat(32);
const B = 'b'.repeat(40);
const viewer = {
  merchantName: 'Shop',
  testMode: true,
  key: { id: 'key_1', type: 'restricted' as const, name: 'Support', permissions: ['balance:read'] },
};
const data = { sid: 'sess_1', secretKey: 'rk_test_' + 'k'.repeat(40), viewer };

describe('session secrets', () => {
  it('reads a comma-separated list, newest first', () => {
    expect(resolveSessionSecrets({ SESSION_SECRET: `${B}, ${A}`, DATA_DIR: '/nonexistent' })).toEqual([B, A]);
  });

  it('refuses a list with a secret under 32 characters', () => {
    expect(() => parseEnv({ SESSION_SECRET: `${A},short` })).toThrow(ConfigError);
    expect(() => parseEnv({ SESSION_SECRET: 'x'.repeat(31) })).toThrow(/SESSION_SECRET/);
  });

  it('without SESSION_SECRET, generates one beside the embedded database, owner-only, and keeps it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-secret-'));
    const first = resolveSessionSecrets({ DATA_DIR: dir });
    const file = path.join(dir, SESSION_SECRET_FILE);
    expect(first[0]!.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveSessionSecrets({ DATA_DIR: dir })).toEqual(first);
    fs.chmodSync(file, 0o644);
    resolveSessionSecrets({ DATA_DIR: dir });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.rmSync(dir, { recursive: true });
  });

  it('with DATABASE_URL, or a console store of its own on CONSOLE_DATABASE_URL, it must be set, and says so', () => {
    expect(() => resolveSessionSecrets({ DATA_DIR: '.', DATABASE_URL: 'postgres://x/y' })).toThrow(
      /SESSION_SECRET must be set when DATABASE_URL/,
    );
    expect(() => resolveSessionSecrets({ DATA_DIR: '.', DATABASE_URL: undefined, CONSOLE_DATABASE_URL: 'postgres://x/y' })).toThrow(
      /SESSION_SECRET must be set when DATABASE_URL or CONSOLE_DATABASE_URL/,
    );
  });
});

describe('sealed cookie', () => {
  it('unseals with any listed secret, so rotation signs nobody out', async () => {
    const old = await seal(data, [A], 3600);
    expect(await unseal(old, [B, A], 3600)).toEqual(data);
    const fresh = await seal(data, [B, A], 3600);
    expect(await unseal(fresh, [B], 3600)).toEqual(data);
    expect(await unseal(fresh, [A], 3600)).toBeUndefined();
  });

  it('remembers recent unseals per list of secrets: a secret dropped later still refuses the cookie', async () => {
    const sealed = await seal(data, [A], 3600);
    expect(await unseal(sealed, [A], 3600)).toEqual(data);
    expect(await unseal(sealed, [A], 3600)).toEqual(data);
    expect(await unseal(sealed, [B], 3600)).toBeUndefined();
  });

  it('refuses a dropped secret, a tampered seal and garbage', async () => {
    const sealed = await seal(data, [A], 3600);
    expect(await unseal(sealed, [B], 3600)).toBeUndefined();
    expect(await unseal(sealed.replace(/\*[^*]{6}/, '*AAAAAA'), [A], 3600)).toBeUndefined();
    expect(await unseal('not-a-seal', [A], 3600)).toBeUndefined();
  });

  it('refuses a cookie sealed before sessions carried their viewer (sign in again)', async () => {
    const { viewer: _, ...old } = data;
    expect(await unseal(await seal(old as typeof data, [A], 3600), [A], 3600)).toBeUndefined();
  });

  it('does not carry the key in the clear', async () => {
    expect(await seal(data, [A], 3600)).not.toContain(data.secretKey.slice(8));
  });
});

describe('session records', () => {
  let db: Db;
  let merchantId: string;
  beforeAll(async () => {
    db = await pgliteBackend.open();
    merchantId = (await createMerchant(db, { name: 'Shop', openingBalance: 0 })).id;
  });
  afterAll(() => db.close());

  const create = (ttlSeconds = 3600) => createSessionRecord(db, { merchantId, keyHash: 'h', ttlSeconds });

  it('a new id at every sign-in', async () => {
    expect(await create()).not.toBe(await create());
  });

  it('sign-out revokes one session; sign out everywhere revokes the rest', async () => {
    const [a, b, c] = [await create(), await create(), await create()];
    await revokeSession(db, a);
    expect(await findLiveSession(db, a)).toBeUndefined();
    expect(await findLiveSession(db, b)).toMatchObject({ merchantId });
    expect(await revokeMerchantSessions(db, merchantId)).toBeGreaterThanOrEqual(2);
    expect(await findLiveSession(db, b)).toBeUndefined();
    expect(await findLiveSession(db, c)).toBeUndefined();
  });

  it('an expired session is not live', async () => {
    expect(await findLiveSession(db, await create(-1))).toBeUndefined();
  });
});
