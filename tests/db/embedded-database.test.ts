import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from '@/lib/db/dir-lock';
import { parseMoneyInt } from '@/lib/db/int8';
import { migrate } from '@/lib/db/migrate';
import { migrations } from '@/lib/db/migrations';
import { openDb } from '@/lib/db/open-db';
import { backends } from '../../testing/databases';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'pay-db-'));

/** A real second process that holds the lock until killed. */
function lockInChild(dir: string) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `
    const { lockDataDir } = require(${JSON.stringify(path.resolve('lib/db/dir-lock.ts'))});
    lockDataDir(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise<typeof child>((resolve) => child.stdout.once('data', () => resolve(child)));
}

describe('the embedded database folder', () => {
  it('keeps data across restarts', async () => {
    const dir = tempDir();
    const a = await openDb({ dataDir: dir });
    await a.query(`INSERT INTO merchants (id, name, currency) VALUES ('acct_1', 'Kept', 'IDR')`);
    await a.close();
    const b = await openDb({ dataDir: dir });
    expect(await b.query('SELECT name FROM merchants')).toEqual([{ name: 'Kept' }]);
    await b.close();
  });

  it('creates the folder for its owner only (0700), and tightens one that exists', async () => {
    const fresh = path.join(tempDir(), 'nested', 'data');
    lockDataDir(fresh).release();
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o700);
    const loose = tempDir();
    fs.chmodSync(loose, 0o755);
    lockDataDir(loose).release();
    expect(fs.statSync(loose).mode & 0o777).toBe(0o700);
  });

  it('refuses a second process with a clear message while the first holds the folder', async () => {
    const dir = tempDir();
    const child = await lockInChild(dir);
    try {
      const attempt = openDb({ dataDir: dir });
      await expect(attempt).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(attempt).rejects.toThrow(`in use by process ${child.pid}`);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('takes over the lock of a process that was killed (kill -9) at once', async () => {
    const dir = tempDir();
    const child = await lockInChild(dir);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(fs.existsSync(path.join(dir, 'app.lock'))).toBe(true);
    const lock = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'app.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(path.join(dir, 'app.lock'))).toBe(false);
  });
});

describe.each(backends)('schema migrations ($name)', (backend) => {
  it('apply once and are a no-op afterwards', async () => {
    const db = await backend.open();
    try {
      expect(await migrate(db)).toEqual([]);
      const rows = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
      expect(rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
    } finally {
      await db.close();
    }
  });

  it('backfill balances.pending_payouts from the pending payouts of a database at version 1', async () => {
    const db = await backend.openEmpty();
    try {
      expect(await migrate(db, migrations.slice(0, 1))).toEqual([1]);
      // Version 1 state: available already debited, pending known only from the payouts.
      const payouts: Array<[merchant: string, amount: number, status: string]> = [
        ['acct_a', 30_000, 'pending'],
        ['acct_a', 45_000, 'pending'],
        ['acct_a', 10_000, 'paid'],
        ['acct_a', 20_000, 'failed'],
        ['acct_b', 12_345, 'pending'],
        ['acct_c', 50_000, 'paid'],
      ];
      for (const id of ['acct_a', 'acct_b', 'acct_c', 'acct_d']) {
        await db.query(`INSERT INTO merchants (id, name, currency) VALUES ($1, $1, 'IDR')`, [id]);
        await db.query(`INSERT INTO balances (merchant_id, currency, available) VALUES ($1, 'IDR', 1000)`, [id]);
      }
      for (const [i, [merchant, amount, status]] of payouts.entries()) {
        await db.query(
          `INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after)
           VALUES ($1, $2, $3, 'IDR', 'BCA', '1234567890', $4, now())`,
          [`po_${i}`, merchant, amount, status],
        );
      }

      expect(await migrate(db, migrations.slice(0, 2))).toEqual([2]);
      const rows = await db.query('SELECT merchant_id, available, pending_payouts FROM balances ORDER BY merchant_id');
      expect(rows).toEqual([
        { merchant_id: 'acct_a', available: 1000, pending_payouts: 75_000 },
        { merchant_id: 'acct_b', available: 1000, pending_payouts: 12_345 },
        { merchant_id: 'acct_c', available: 1000, pending_payouts: 0 },
        { merchant_id: 'acct_d', available: 1000, pending_payouts: 0 },
      ]);
      await expect(db.query(`UPDATE balances SET pending_payouts = -1 WHERE merchant_id = 'acct_d'`)).rejects.toThrow(/check constraint/);
    } finally {
      await db.close();
    }
  });

  it('backfill the per-day figures from the ledger and payouts of a database at version 9, and keep them from then on', async () => {
    const db = await backend.openEmpty();
    try {
      await migrate(
        db,
        migrations.filter((m) => m.version <= 9),
      );
      await db.query(`INSERT INTO merchants (id, name, currency) VALUES ('acct_f', 'F', 'IDR')`);
      await db.query(`INSERT INTO balances (merchant_id, currency, available) VALUES ('acct_f', 'IDR', 70000)`);
      await db.query(
        `INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id, created_at) VALUES
           ('acct_f', 100000, 100000, 'opening_balance', 'acct_f', '2026-01-01T10:00:00Z'),
           ('acct_f', -40000, 60000, 'payout', 'po_1', '2026-01-01T23:59:59Z'),
           ('acct_f', 10000, 70000, 'topup', 't', '2026-01-03T00:00:00Z')`,
      );
      await db.query(
        `INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after, created_at)
         VALUES ('po_1', 'acct_f', 40000, 'IDR', 'BCA', '1234567890', 'paid', now(), '2026-01-01T23:59:59Z')`,
      );
      expect(await migrate(db)).toEqual(migrations.filter((m) => m.version > 9).map((m) => m.version));
      const days = () =>
        db.query(
          `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(money_in)::bigint AS i, sum(money_out)::bigint AS o, sum(entries)::int AS n,
                (array_agg(closing_balance ORDER BY closing_entry_id DESC))[1] AS c
         FROM balance_daily WHERE merchant_id = 'acct_f' GROUP BY day ORDER BY day`,
        );
      expect(await days()).toEqual([
        { day: '2026-01-01', i: 100000, o: 40000, n: 2, c: 60000 },
        { day: '2026-01-03', i: 10000, o: 0, n: 1, c: 70000 },
      ]);
      // From now on the triggers keep them: a status change moves the payout between statuses.
      await db.query(`UPDATE payouts SET status = 'failed' WHERE id = 'po_1'`);
      expect(
        await db.query(
          `SELECT status, sum(count)::int AS n, sum(total)::bigint AS t FROM payout_daily WHERE merchant_id = 'acct_f' GROUP BY status HAVING sum(count) <> 0`,
        ),
      ).toEqual([{ status: 'failed', n: 1, t: 40000 }]);
    } finally {
      await db.close();
    }
  });

  it('backfill the batch counts from the payouts of a database at the version before 13, and keep them from then on', async () => {
    const db = await backend.openEmpty();
    try {
      await migrate(
        db,
        migrations.filter((m) => m.version !== 13),
      );
      await db.query(`INSERT INTO merchants (id, name, currency) VALUES ('acct_g', 'G', 'IDR')`);
      await db.query(
        `INSERT INTO payout_batches (id, merchant_id, currency, total_amount, payout_count) VALUES ('pb_1', 'acct_g', 'IDR', 700, 7), ('pb_2', 'acct_g', 'IDR', 100, 1)`,
      );
      const statuses = ['pending', 'paid', 'paid', 'failed', 'awaiting_approval', 'rejected', 'expired'];
      await db.query(
        `INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after, batch_id, approval_expires_at)
         SELECT 'po_' || n, 'acct_g', 100, 'IDR', 'BCA', '1234567890', s, now(), CASE WHEN n <= 7 THEN 'pb_1' ELSE 'pb_2' END, now()
         FROM unnest($1::text[]) WITH ORDINALITY AS t(s, n)
         UNION ALL SELECT 'po_alone', 'acct_g', 100, 'IDR', 'BCA', '1234567890', 'paid', now(), NULL, NULL`,
        [[...statuses, 'pending']],
      );
      expect(await migrate(db)).toEqual([13]);
      const counts = () =>
        db.query(
          `SELECT batch_id, status, sum(count)::int AS n FROM payout_batch_counts GROUP BY 1, 2 HAVING sum(count) <> 0 ORDER BY 1, 2`,
        );
      const scanned = () =>
        db.query(`SELECT batch_id, status, count(*)::int AS n FROM payouts WHERE batch_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`);
      expect(await counts()).toEqual(await scanned());
      expect(await counts()).toContainEqual({ batch_id: 'pb_1', status: 'paid', n: 2 });
      // From now on the triggers keep them: a status change moves a payout between statuses, a delete takes it away.
      await db.query(`UPDATE payouts SET status = 'paid' WHERE batch_id IS NOT NULL AND status = 'pending'`);
      await db.query(`DELETE FROM payouts WHERE id = 'po_4'`);
      expect(await counts()).toEqual(await scanned());
      expect(await counts()).toContainEqual({ batch_id: 'pb_2', status: 'paid', n: 1 });
    } finally {
      await db.close();
    }
  });

  it('return money columns as exact integers, from BIGINT and from SUM alike', async () => {
    const db = await backend.open();
    try {
      const [row] = await db.query<{ big: unknown; total: unknown; n: unknown }>(
        `SELECT 9007199254740991::bigint AS big, SUM(x)::numeric AS total, count(*) AS n FROM (VALUES (1::bigint), (2::bigint)) v(x)`,
      );
      expect(row).toEqual({ big: 9007199254740991, total: 3, n: 2 });
      await expect(db.query('SELECT 9007199254740993::bigint AS too_big')).rejects.toThrow(/exact range/);
    } finally {
      await db.close();
    }
  });
});

describe('parseMoneyInt', () => {
  it.each(['1.5', 'abc', '9007199254740992'])('refuses %s', (text) => expect(() => parseMoneyInt(text)).toThrow(RangeError));
  it('parses integers', () => expect(parseMoneyInt('-42')).toBe(-42));
});
