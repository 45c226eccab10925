// A settlement backlog written straight into the tables (through their triggers), and the counts the
// settlement bench reads beside it: shared by bench/settlement.ts, explain-settlement.ts and storage-breakdown.ts.
import type { Db } from '../lib/db/types';

/** The updates of this schema's payouts counted so far, and how many of them were HOT (pg_stat_user_tables). */
export async function payoutUpdates(db: Db) {
  const [r] = await db.query<{ upd: string; hot: string }>(
    `SELECT COALESCE(sum(n_tup_upd), 0) AS upd, COALESCE(sum(n_tup_hot_upd), 0) AS hot FROM pg_stat_user_tables
     WHERE relname = 'payouts' AND schemaname = current_schema()`,
  );
  return { upd: Number(r!.upd), hot: Number(r!.hot) };
}

/**
 * `n` due payouts of `merchants` merchants, reserved in their balances: written in statements of 50,000 by two writers at
 * once (one per core), then the balances once. `bankOf` picks each payout's bank from its number `g` (SQL).
 */
export async function writeBacklog(db: Db, n: number, merchants: number, bankOf = `'BCA'`) {
  await db.query(
    `INSERT INTO merchants (id, name, currency) SELECT 'acct_bench' || m, 'Bench ' || m, 'IDR' FROM generate_series(1, $1) m`,
    [merchants],
  );
  await db.query(
    `INSERT INTO balances (merchant_id, currency, available, pending_payouts)
     SELECT 'acct_bench' || m, 'IDR', 0, 0 FROM generate_series(1, $1) m`,
    [merchants],
  );
  const chunks = Array.from({ length: Math.ceil(n / 50_000) }, (_, i) => [i * 50_000 + 1, Math.min(n, (i + 1) * 50_000)] as const);
  const writer = async () => {
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift())
      await db.query(
        `INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after, reference)
         SELECT 'po_bench' || g, 'acct_bench' || (g % $3 + 1), 10000 + g % 1000, 'IDR', ${bankOf},
                CASE WHEN g % 50 = 0 THEN '4000000002' ELSE lpad(((g::bigint * 7919) % 10000000000)::text, 10, '0') END,
                'pending', now() - interval '1 second', 'bench-' || g
         FROM generate_series($1::int, $2::int) g`,
        [chunk[0], chunk[1], merchants],
      );
  };
  await Promise.all([writer(), writer()]);
  await db.query(
    `UPDATE balances b SET pending_payouts = s.total
     FROM (SELECT merchant_id, sum(amount) AS total FROM payouts WHERE merchant_id LIKE 'acct_bench%' GROUP BY 1) s
     WHERE b.merchant_id = s.merchant_id`,
  );
  await vacuumSchema(db);
}

/** VACUUM ANALYZE of this schema's tables: a bare VACUUM would walk every schema of the shared database. */
export async function vacuumSchema(db: Db) {
  const tables = await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`);
  await db.exec(`VACUUM ANALYZE ${tables.map((t) => `"${t.name}"`).join(', ')}`);
}
