// npm run backup / npm run restore on the embedded database: a backup taken by a running
// server under a withdrawal load holds one instant, a server starts on its restore and replays the keys it holds;
// restore refuses a folder that is not empty, a file that is not a backup, a truncated and a damaged one, writing
// nothing; without a server, backup opens the folder itself.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_MAGIC, BackupError, DATA_DIR_SECRET_FILES, readBackupFile, restoreBackup } from '@/lib/admin/backup';
import { REPLAYED_HEADER } from '@/lib/contract';
import { openDb } from '@/lib/db/open-db';
import { openPgliteDb } from '@/lib/db/pglite-db';
import { SEALING_KEY_FILE, SESSION_SECRET_FILE } from '@/lib/config/secret-file';
import { callApi, withdrawal } from '../helpers/api-server';
import { ledgerCheck } from '../../testing/ledger';
import { openMigratedPglite } from '../../testing/pglite-template';
import { DEMO_KEY, ROOT, ServerProcess } from '../../testing/server-process';
import { expectLedgerExact } from '../stress/ledger-assertions';

const run = promisify(execFile);

async function cli(script: 'backup' | 'restore', dataDir: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Every entry under `dir` with its size and mode, to show a refused restore wrote nothing. */
function snapshot(dir: string): string[] {
  if (!fs.existsSync(dir)) return ['(missing)'];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => {
      const full = path.join(e.parentPath, e.name);
      const st = fs.statSync(full);
      return `${path.relative(dir, full)} ${st.size} ${(st.mode & 0o777).toString(8)}`;
    })
    .sort();
}

interface Sent {
  key: string;
  body: unknown;
  sentAt: number;
  answeredAt: number;
  status: number;
  text: string;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pay-backup-'));
const BACKUP = path.join(tmp, 'nightly.backup');

describe('npm run backup and npm run restore (embedded database)', () => {
  let server: ServerProcess;
  let merchantId: string;
  beforeAll(async () => {
    // No SECRETS_ENCRYPTION_KEY: the server generates its sealing key into DATA_DIR, which a backup must carry.
    server = await new ServerProcess({ kind: 'standalone', env: { SECRETS_ENCRYPTION_KEY: '' } }).start();
    // As `npm start` would have made it: the console's session secret, beside the database.
    fs.writeFileSync(path.join(server.dataDir!, SESSION_SECRET_FILE), randomBytes(32).toString('base64url'), { mode: 0o600 });
    const topup = await callApi(
      server.url,
      DEMO_KEY,
      { action: 'create_test_topup', amount: 10_000_000_000 },
      { idempotencyKey: 'topup-1' },
    );
    expect(topup.status).toBe(200);
    merchantId = (await callApi(server.url, DEMO_KEY, { action: 'get_balance' })).body.merchant.id;
  });
  afterAll(async () => {
    await server?.stop();
    server?.cleanUp();
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  });

  it('carries the secret files the server makes beside the database', () => {
    expect([...DATA_DIR_SECRET_FILES].sort()).toEqual([SEALING_KEY_FILE, SESSION_SECRET_FILE].sort());
  });

  it('dumps between transactions: a dump asked for inside one waits for its commit', async () => {
    // PGlite's own dumpDataDir waits only for the statement running: asked for here, it would copy the folder with
    // the transaction half done (which a restore then rolls back). Db.dumpDataDir waits for the transaction.
    const db = await openMigratedPglite();
    try {
      await db.exec('CREATE TABLE pairs (a int NOT NULL, b int NOT NULL)');
      let dump: Promise<Blob> | undefined;
      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO pairs VALUES (1, 0)');
        dump = db.dumpDataDir!();
        await new Promise((r) => setTimeout(r, 100)); // no statement runs: the dump's turn, were it not waiting
        await tx.query('UPDATE pairs SET b = 1');
      });
      const copy = await openPgliteDb(undefined, await dump!);
      try {
        expect(await copy.query('SELECT a, b FROM pairs')).toEqual([{ a: 1, b: 1 }]);
      } finally {
        await copy.close();
      }
    } finally {
      await db.close();
    }
  });

  it('takes one instant under a withdrawal load; a server starts on the restore and replays the keys it holds', async () => {
    // Six clients withdrawing back to back, each request under a key of its own, until told to stop.
    const sent: Sent[] = [];
    let loading = true;
    const clients = Array.from({ length: 6 }, async (_, c) => {
      try {
        for (let n = 0; loading; n++) {
          const key = `load-${c}-${n}`;
          const body = withdrawal(10_000 + c);
          const sentAt = performance.now();
          const res = await callApi(server.url, DEMO_KEY, body, { idempotencyKey: key });
          sent.push({ key, body, sentAt, answeredAt: performance.now(), status: res.status, text: res.text });
        }
      } finally {
        loading = false; // one client failing stops the others, and the waits below
      }
    });
    let backupFrom = 0;
    let backupTo = 0;
    let backup: Awaited<ReturnType<typeof cli>>;
    try {
      while (loading && sent.length < 60) await new Promise((r) => setTimeout(r, 20));
      backupFrom = performance.now();
      backup = await cli('backup', server.dataDir!, BACKUP);
      backupTo = performance.now();
      // Then a while longer: these requests began after the backup was written.
      const atEnd = sent.length;
      while (loading && sent.length < atEnd + 30) await new Promise((r) => setTimeout(r, 20));
    } finally {
      loading = false;
      await Promise.all(clients);
    }
    const answeredDuring = sent.filter((s) => s.answeredAt > backupFrom && s.answeredAt < backupTo).length;

    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`taken by the running server, process ${server.pid}`);
    expect(answeredDuring).toBeGreaterThan(0);
    expect(sent.every((s) => s.status === 200)).toBe(true);
    expect(fs.statSync(BACKUP).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(tmp)).toEqual(['nightly.backup']); // no temporary file left beside it
    const before = sent.filter((s) => s.answeredAt < backupFrom);
    const after = sent.filter((s) => s.sentAt > backupTo);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);

    // Into an empty folder (one that exists: a mount point, say).
    const restored = fs.mkdtempSync(path.join(tmp, 'restored-'));
    const restore = await cli('restore', restored, BACKUP);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`Restored ${BACKUP} into ${restored}`);
    expect(fs.readdirSync(restored).sort()).toEqual(['pgdata', SESSION_SECRET_FILE, SEALING_KEY_FILE].sort());
    for (const name of DATA_DIR_SECRET_FILES) {
      expect(fs.readFileSync(path.join(restored, name), 'utf8')).toBe(fs.readFileSync(path.join(server.dataDir!, name), 'utf8'));
      expect(fs.statSync(path.join(restored, name)).mode & 0o777).toBe(0o600);
    }

    // One instant: every payout has its ledger entry and its event; the ledger sums to the balances; the keys
    // and the payouts are the same set; every key answered before the backup began is there, none sent after it ended.
    const db = await openDb({ dataDir: restored });
    let keys: Set<string>;
    try {
      const [orphans] = await db.query<{
        payouts: number;
        noEntry: number;
        noEvent: number;
        noAnswer: number;
        keyless: number;
        payoutless: number;
      }>(
        `SELECT (SELECT count(*)::int FROM payouts WHERE merchant_id = $1) AS payouts,
                (SELECT count(*)::int FROM payouts p WHERE NOT EXISTS
                   (SELECT 1 FROM ledger_entries l WHERE l.reference_id = p.id AND l.kind = 'payout' AND l.amount = -p.amount)) AS "noEntry",
                (SELECT count(*)::int FROM payouts p WHERE NOT EXISTS
                   (SELECT 1 FROM events e WHERE e.object_id = p.id AND e.type = 'payout.created')) AS "noEvent",
                (SELECT count(*)::int FROM idempotency_keys WHERE response_status IS NULL) AS "noAnswer",
                (SELECT count(*)::int FROM payouts p WHERE NOT EXISTS
                   (SELECT 1 FROM idempotency_keys k WHERE k.action = 'withdraw' AND k.response_body::json->>'id' = p.id)) AS keyless,
                (SELECT count(*)::int FROM idempotency_keys k WHERE k.action = 'withdraw' AND NOT EXISTS
                   (SELECT 1 FROM payouts p WHERE p.id = k.response_body::json->>'id')) AS payoutless`,
        [merchantId],
      );
      expect(orphans).toEqual({ payouts: expect.any(Number), noEntry: 0, noEvent: 0, noAnswer: 0, keyless: 0, payoutless: 0 });
      expectLedgerExact(await ledgerCheck(db, merchantId));
      keys = new Set((await db.query<{ key: string }>(`SELECT key FROM idempotency_keys WHERE key LIKE 'load-%'`)).map((r) => r.key));
      expect(orphans!.payouts).toBe(keys.size);
    } finally {
      await db.close();
    }
    console.log(
      `backup under load: ${sent.length} withdrawals by 6 clients, ${answeredDuring} answered while the backup ran ` +
        `(${Math.round(backupTo - backupFrom)} ms, CLI start included), ${keys.size} in the backup (${before.length} answered before it began, ${after.length} sent after it ended)`,
    );
    expect(before.filter((s) => !keys.has(s.key)).map((s) => s.key)).toEqual([]);
    expect(after.filter((s) => keys.has(s.key)).map((s) => s.key)).toEqual([]);

    // A server on the restored folder answers the keys it holds as replays, byte for byte.
    const second = await new ServerProcess({ kind: 'standalone', dataDir: restored, env: { SECRETS_ENCRYPTION_KEY: '' } }).start();
    try {
      const held = sent.filter((s) => keys.has(s.key));
      for (let i = 0; i < held.length; i += 8) {
        await Promise.all(
          held.slice(i, i + 8).map(async (s) => {
            const replay = await callApi(second.url, DEMO_KEY, s.body, { idempotencyKey: s.key });
            expect([replay.status, replay.headers.get(REPLAYED_HEADER), replay.text]).toEqual([s.status, 'true', s.text]);
          }),
        );
      }
      // A key sent after the backup is new to it: a new payout, not a replay.
      const fresh = await callApi(second.url, DEMO_KEY, after[0]!.body, { idempotencyKey: after[0]!.key });
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get(REPLAYED_HEADER)).toBeNull();
      expect(fresh.body.id).not.toBe(JSON.parse(after[0]!.text).id);
    } finally {
      await second.stop();
    }
  }, 120_000);

  it('restore refuses a folder that is not empty, a file that is not a backup, a truncated, a damaged and a newer one, writing nothing', async () => {
    const whole = fs.readFileSync(BACKUP);
    const files = {
      random: path.join(tmp, 'random.bin'),
      truncated: path.join(tmp, 'truncated.backup'),
      header: path.join(tmp, 'header-only.backup'),
      damaged: path.join(tmp, 'damaged.backup'),
      newer: path.join(tmp, 'newer.backup'),
    };
    fs.writeFileSync(files.random, randomBytes(64 * 1024));
    fs.writeFileSync(files.truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    fs.writeFileSync(files.header, whole.subarray(0, BACKUP_MAGIC.length + 20));
    const flipped = Buffer.from(whole);
    flipped[flipped.length - 100]! ^= 0xff;
    fs.writeFileSync(files.damaged, flipped);
    const headerEnd = whole.indexOf(0x0a, BACKUP_MAGIC.length);
    const header = JSON.parse(whole.subarray(BACKUP_MAGIC.length, headerEnd).toString('utf8'));
    fs.writeFileSync(
      files.newer,
      Buffer.concat([Buffer.from(`${BACKUP_MAGIC}${JSON.stringify({ ...header, schema_version: 9999 })}`), whole.subarray(headerEnd)]),
    );

    const notEmpty = fs.mkdtempSync(path.join(tmp, 'in-use-'));
    fs.writeFileSync(path.join(notEmpty, 'notes.txt'), 'mine');
    const missing = (name: string) => path.join(tmp, `never-${name}`);
    const cases = [
      { dir: notEmpty, file: BACKUP, message: `DATA_DIR ${notEmpty} is not empty (it holds notes.txt)` },
      { dir: missing('random'), file: files.random, message: `${files.random} is not a backup of this service` },
      { dir: missing('truncated'), file: files.truncated, message: `${files.truncated} is truncated: it holds` },
      { dir: missing('header'), file: files.header, message: `${files.header} is truncated: it ends within its header` },
      { dir: missing('damaged'), file: files.damaged, message: `${files.damaged} is damaged: its checksum does not match` },
      {
        dir: missing('newer'),
        file: files.newer,
        message: `${files.newer} was taken by a newer version of this service (schema version 9999`,
      },
      { dir: missing('absent'), file: path.join(tmp, 'absent.backup'), message: 'absent.backup does not exist' },
    ];
    const before = cases.map((c) => snapshot(c.dir));
    // The refusals the issue names through the command itself (its message, exit code 1); the others through
    // the library function the command calls (each a CLI start fewer).
    const results = await Promise.all(
      cases.map(async (c, i) => {
        if (i < 3) return cli('restore', c.dir, c.file);
        const error = await restoreBackup(c.file, c.dir).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(BackupError);
        return { code: 1, stdout: '', stderr: (error as Error).message };
      }),
    );
    results.forEach((r, i) => {
      expect([r.code, r.stdout, r.stderr]).toEqual([1, '', expect.stringContaining(cases[i]!.message)]);
      expect(snapshot(cases[i]!.dir)).toEqual(before[i]);
    });
    expect(fs.readFileSync(path.join(notEmpty, 'notes.txt'), 'utf8')).toBe('mine');
    expect(results[0]!.stderr).toContain('Nothing was written.');
  });

  it('answers a backup only to this machine with the token, then, without a server, opens the folder itself', async () => {
    for (const authorization of [undefined, 'Bearer not-the-token']) {
      const res = await fetch(`${server.url}/_admin/backup`, { method: 'POST', headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
    }
    const last = await callApi(server.url, DEMO_KEY, withdrawal(10_000), { idempotencyKey: 'last-before-stop' });
    expect(last.status).toBe(200);
    const lastPayout = last.body.id;
    await server.stop();
    const file = path.join(tmp, 'offline.backup');
    const offline = await cli('backup', server.dataDir!, file);
    expect(offline.stderr).toBe('');
    expect(offline.code).toBe(0);
    expect(offline.stdout).not.toContain('running server');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const { header, files, pgdata } = readBackupFile(file);
    expect(header.schema_version).toBe(readBackupFile(BACKUP).header.schema_version);
    expect(files.map((f) => f.name)).toEqual([...DATA_DIR_SECRET_FILES]);
    // The folder is free again; the backup holds the payout made last before the server stopped.
    expect(fs.existsSync(path.join(server.dataDir!, 'app.lock'))).toBe(false);
    const db = await openPgliteDb(undefined, new Blob([gunzipSync(pgdata)]));
    try {
      expect(await db.query('SELECT 1 FROM payouts WHERE id = $1', [lastPayout])).toHaveLength(1);
    } finally {
      await db.close();
    }
  });
});
