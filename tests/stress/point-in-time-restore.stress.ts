// pgBackRest point-in-time recovery, exact to the payout: full and incremental backups of the
// replicated cluster, withdrawals before and after a time T, a restore to T into a fresh server,
// and the app started on it. The restored ledger holds exactly the payouts acknowledged before T
// (with their ledger entries), their idempotency keys replay, the later ones are absent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { REPLAYED_HEADER } from '@/lib/contract/protocol';
import { openDb } from '@/lib/db/open-db';
import { clusterBinariesMissing, freePortBlock } from '@/ops/cluster/layout';
import { LocalCluster } from '@/ops/cluster/local-cluster';
import { backup, check, info } from '@/ops/cluster/pgbackrest';
import { restoreToTime, type RestoredServer } from '@/ops/cluster/point-in-time-restore';
import { callApi, withdrawal } from '../helpers/api-server';
import { ledgerCheck } from '../../testing/ledger';
import { DEMO_KEY, ServerProcess } from '../../testing/server-process';
import { expectLedgerExact } from './ledger-assertions';
import { recordFigures } from './figures';

const AMOUNT = 10_000;
// Settlement would mark payouts paid in the background: held off, so the records stay as acknowledged.
const ENV = { SETTLEMENT_DELAY_SECONDS: '86400' };

async function oneRow<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows[0]!;
  } finally {
    await client.end();
  }
}

describe.skipIf(clusterBinariesMissing().length > 0)('point-in-time restore (pgBackRest)', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pitr-'));
  fs.chmodSync(tmp, 0o755);
  let cluster: LocalCluster | undefined;
  let restored: RestoredServer | undefined;
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await restored?.stop().catch(() => {});
    await cluster?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('restores to T exactly: the payouts acknowledged before T with their ledger entries, keys that replay, nothing after T', async () => {
    const started = Date.now();
    // Each step's time on stderr: a slow step shows which one.
    const step = (what: string) => process.stderr.write(`pitr ${((Date.now() - started) / 1000).toFixed(1)} s: ${what}\n`);
    const basePort = await freePortBlock();
    cluster = await LocalCluster.start({ dir: path.join(tmp, 'cluster'), basePort, nodes: 2, archive: true });
    const app = new ServerProcess({ kind: 'standalone', databaseUrl: cluster.databaseUrl, env: ENV });
    servers.push(app);
    await app.start();
    step('cluster and app up');

    const withdraw = async (key: string) => {
      const res = await callApi(app.url, DEMO_KEY, withdrawal(AMOUNT), { idempotencyKey: key });
      expect(res.status, res.text).toBe(200);
      return res.body.id as string;
    };
    const before: { key: string; id: string }[] = [];
    await backup(cluster, 'full');
    step('full backup taken');
    for (let i = 0; i < 5; i++) before.push({ key: `pitr-before-full-${i}`, id: await withdraw(`pitr-before-full-${i}`) });
    await backup(cluster, 'incr');
    step('incremental backup taken');
    for (let i = 0; i < 5; i++) before.push({ key: `pitr-before-incr-${i}`, id: await withdraw(`pitr-before-incr-${i}`) });
    // T from the database's clock, after the last pre-T commit was acknowledged (a commit's WAL
    // timestamp precedes its acknowledgement); then a gap, so that no later commit shares T.
    const { t } = await oneRow<{ t: string }>(
      cluster.databaseUrl,
      `SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' AS t`,
    );
    await new Promise((r) => setTimeout(r, 1000));
    const after: { key: string; id: string }[] = [];
    for (let i = 0; i < 5; i++) after.push({ key: `pitr-after-${i}`, id: await withdraw(`pitr-after-${i}`) });
    // check switches the WAL segment and waits until it is archived: the commits after T reach the repository.
    await check(cluster);
    step(`withdrawals made, T = ${t}, WAL archived`);
    const backups = ((await info(cluster)) as { backup: { type: string }[] }[])[0]!.backup.map((b) => b.type);
    expect(backups).toEqual(['full', 'incr']);

    const t0 = Date.now();
    restored = await restoreToTime(cluster, { dir: path.join(tmp, 'restored'), port: basePort + 19, target: t });
    const restoreMs = Date.now() - t0;
    step('restored and promoted');
    const onRestored = new ServerProcess({ kind: 'standalone', databaseUrl: restored.databaseUrl, env: ENV });
    servers.push(onRestored);
    await onRestored.start();

    const db = await openDb({ databaseUrl: restored.databaseUrl, poolSize: 2 });
    try {
      const ids = (await db.query<{ id: string }>('SELECT id FROM payouts ORDER BY seq')).map((r) => r.id);
      expect(ids).toEqual(before.map((b) => b.id));
      const entries = await db.query<{ reference_id: string }>(`SELECT reference_id FROM ledger_entries WHERE kind = 'payout' ORDER BY id`);
      expect(entries.map((e) => e.reference_id)).toEqual(before.map((b) => b.id));
      const [{ merchant_id: merchantId }] = (await db.query<{ merchant_id: string }>('SELECT merchant_id FROM payouts LIMIT 1')) as [
        { merchant_id: string },
      ];
      expectLedgerExact(await ledgerCheck(db, merchantId), { payouts: before.length });
      const afterIds = after.map((a) => a.id);
      expect(await db.query('SELECT id FROM payouts WHERE id = ANY($1)', [afterIds])).toEqual([]);
      expect(await db.query('SELECT id FROM ledger_entries WHERE reference_id = ANY($1)', [afterIds])).toEqual([]);
    } finally {
      await db.close();
    }

    // The app on the restored database replays every pre-T key with the same payout.
    for (const b of before) {
      const res = await callApi(onRestored.url, DEMO_KEY, withdrawal(AMOUNT), { idempotencyKey: b.key });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get(REPLAYED_HEADER)).toBe('true');
      expect(res.body.id).toBe(b.id);
    }
    // And the original cluster's archive is still sound.
    await check(cluster);
    recordFigures('point-in-time restore', {
      'payouts before T': before.length,
      'payouts after T': after.length,
      'restore and recovery (ms)': restoreMs,
    });
  }, 300_000);
});
