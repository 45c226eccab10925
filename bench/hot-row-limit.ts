// The hot-row limit of a busy merchant's balance row, as pgbench measures it (the limit is pgbench itself, not a
// client of ours): `clients` connections, 2 threads, each transaction one conditional UPDATE of the one balance row,
// prepared, for `seconds`. Our own Node client on the pg driver, on the same schema in the same minute, read 12-18%
// below pgbench at 8 clients and 0.81-1.20 of it at 64: too far from it to stand for the limit, so the bench runs pgbench.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const HOT_ROW_SQL = `UPDATE balances SET available = available - 1, pending_payouts = pending_payouts + 1 WHERE merchant_id = :merchant AND available >= 1;`;

/** Transactions per second of pgbench on `databaseUrl` (its search_path in the `options` parameter, as createSchemaUrl makes it). */
export async function hotRowLimit(databaseUrl: string, merchantId: string, clients: number, seconds: number): Promise<number> {
  const url = new URL(databaseUrl);
  const options = url.searchParams.get('options') ?? '';
  url.searchParams.delete('options');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-row-'));
  const script = path.join(dir, 'hot-row.sql');
  fs.writeFileSync(script, HOT_ROW_SQL + '\n');
  try {
    const args = ['-n', '-M', 'prepared', '-c', String(clients), '-j', '2', '-T', String(seconds), '-D', `merchant=${merchantId}`];
    const { stdout } = await run(process.env.PGBENCH ?? 'pgbench', [...args, '-f', script, url.toString()], {
      env: { ...process.env, PGOPTIONS: options },
    });
    const failed = /number of failed transactions: (\d+)/.exec(stdout);
    if (failed && Number(failed[1]) > 0) throw new Error(`pgbench: ${failed[1]} failed transactions`);
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
    return Number(tps[1]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
