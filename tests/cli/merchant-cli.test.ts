import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDataDir } from '@/lib/db/dir-lock';
import { openDb } from '@/lib/db/open-db';
import { merchantForKey } from '@/lib/payments/merchants/merchants';
import { callApi } from '../helpers/api-server';
import { freshDataDir } from '../../testing/pglite-template';
import { ServerProcess } from '../../testing/server-process';

const run = promisify(execFile);

async function cli(dataDir: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/merchant.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run merchant', () => {
  it('creates, lists, rolls and revokes merchants, with --json for scripts', async () => {
    const dir = freshDataDir('pay-cli');
    const created = await cli(dir, 'create', '--name', 'Acme', '--balance', '500000', '--json');
    expect(created.code).toBe(0);
    const acme = JSON.parse(created.stdout);
    expect(acme).toMatchObject({ name: 'Acme', available: 500_000, currency: 'IDR', secret_key: expect.stringMatching(/^sk_test_/) });

    const listed = JSON.parse((await cli(dir, 'list', '--json')).stdout);
    expect(listed).toEqual([
      expect.objectContaining({ id: acme.id, available: 500_000, active_keys: [`sk_test_…${acme.secret_key.slice(-4)}`] }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(acme.secret_key);

    const rolled = JSON.parse((await cli(dir, 'roll-key', '--id', acme.id, '--json')).stdout);
    expect(rolled.secret_key).not.toBe(acme.secret_key);
    expect((await cli(dir, 'revoke', '--id', acme.id)).stdout).toContain('Revoked 1 key');

    const db = await openDb({ dataDir: dir });
    try {
      expect(await merchantForKey(db, acme.secret_key)).toBeUndefined();
      expect(await merchantForKey(db, rolled.secret_key)).toBeUndefined();
    } finally {
      await db.close();
    }
  });

  it('creates a restricted key and rolls a secret key with a grace period', async () => {
    const dir = freshDataDir('pay-cli');
    const acme = JSON.parse((await cli(dir, 'create', '--name', 'Acme', '--json')).stdout);
    const rk = await cli(
      dir,
      'create-restricted-key',
      '--id',
      acme.id,
      '--name',
      'Support',
      '--permissions',
      'payouts:write, balance:read',
      '--max-payout',
      '500000',
      '--json',
    );
    expect(JSON.parse(rk.stdout)).toMatchObject({
      type: 'restricted',
      name: 'Support',
      permissions: ['payouts:write', 'balance:read'],
      max_payout_amount: 500_000,
      secret: expect.stringMatching(/^rk_test_/),
    });
    const bad = await cli(dir, 'create-restricted-key', '--id', acme.id, '--name', 'X', '--permissions', 'payouts:delete');
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('permissions')]);
    const rolled = JSON.parse((await cli(dir, 'roll-key', '--id', acme.id, '--expires-in', '3600', '--json')).stdout);
    expect(rolled.key.type).toBe('secret');
    expect((await cli(dir, 'roll-key', '--id', acme.id, '--expires-in', '999999')).stderr).toContain('--expires-in must be');
    const db = await openDb({ dataDir: dir });
    try {
      // Both secret keys work: the old one for another hour.
      expect(await merchantForKey(db, acme.secret_key)).toMatchObject({ id: acme.id });
      expect(await merchantForKey(db, rolled.secret_key)).toMatchObject({ id: acme.id });
      expect(await merchantForKey(db, JSON.parse(rk.stdout).secret)).toMatchObject({ id: acme.id });
      await db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE expires_at IS NOT NULL`);
      expect(await merchantForKey(db, acme.secret_key)).toBeUndefined();
    } finally {
      await db.close();
    }
  });

  it('explains its usage errors and a locked embedded database', async () => {
    const dir = freshDataDir('pay-cli');
    const noName = await cli(dir, 'create');
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('--name is required');
    const badBalance = await cli(dir, 'create', '--name', 'X', '--balance', '12.5');
    expect(badBalance.stderr).toContain('--balance must be a whole number');
    expect((await cli(dir, 'revoke', '--id', 'acct_missing')).stderr).toContain('no merchant with id acct_missing');

    const lock = lockDataDir(dir);
    try {
      // The lock belongs to this (live) test process, as it would to a running server.
      const locked = await cli(dir, 'list');
      expect(locked.code).toBe(1);
      expect(locked.stderr).toContain(`in use by process ${process.pid}`);
    } finally {
      lock.release();
    }
  });
});

describe('npm run merchant while a server holds the embedded database', () => {
  // One server for the describe: the first test uses it running, the second stops it (each started its own before).
  let server: ServerProcess;
  beforeAll(async () => {
    server = await new ServerProcess({ kind: 'standalone' }).start();
  });
  afterAll(async () => {
    await server.stop();
    server.cleanUp();
  });

  it('sends the command to that server, from this machine with its token only', async () => {
    const dir = server.dataDir!;
    expect(fs.statSync(path.join(dir, 'admin.json')).mode & 0o777).toBe(0o600);
    const created = await cli(dir, 'create', '--name', 'Playwright worker 1', '--balance', '250000', '--json');
    expect(created.code).toBe(0);
    const merchant = JSON.parse(created.stdout);
    expect(merchant).toMatchObject({ name: 'Playwright worker 1', available: 250_000, secret_key: expect.stringMatching(/^sk_test_/) });
    // The new key works against the running server at once.
    const balance = await callApi(server.url, merchant.secret_key, { action: 'get_balance' });
    expect(balance.body).toMatchObject({ available: 250_000, merchant: { id: merchant.id } });
    const listed = JSON.parse((await cli(dir, 'list', '--json')).stdout);
    expect(listed.map((m: { id: string }) => m.id)).toContain(merchant.id);
    expect((await cli(dir, 'revoke', '--id', 'acct_missing')).stderr).toContain('no merchant with id acct_missing');

    // Without the token, or with another, the endpoint does not exist.
    for (const authorization of [undefined, 'Bearer not-the-token']) {
      const res = await fetch(`${server.url}/_admin/merchants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ command: 'list' }),
      });
      expect(res.status).toBe(404);
    }
  });

  it('removes its access file when the server stops, and the CLI opens the folder itself again', async () => {
    const dir = server.dataDir!;
    expect(server.running).toBe(true);
    expect(fs.existsSync(path.join(dir, 'admin.json'))).toBe(true);
    await server.stop();
    expect(fs.existsSync(path.join(dir, 'admin.json'))).toBe(false);
    expect((await cli(dir, 'list', '--json')).code).toBe(0);
  });
});
