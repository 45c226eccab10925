// The figures_compaction job's run folds every table until it has caught up, not one batch of 5,000: under a write rate
// above that, the unmerged rows every read of their range sums would otherwise grow for as long as the load lasts.
// Where no autovacuum daemon runs it also vacuums the tables its folding left dead rows in (lib/db/table-vacuum.ts).
import { describe, expect, it } from 'vitest';
import { autovacuumDaemonRuns } from '@/lib/db/daemon-upkeep';
import { compactAllFigures, figuresUpkeep } from '@/lib/server/figures-compaction';
import type { Db } from '@/lib/db/types';
import { backends } from '../../testing/databases';

/** A merchant's unmerged figures, as lone withdrawals' statements write them: a ledger row each over 600 seconds, a day row each. */
async function unmergedRows(db: Db, merchantId: string, ledgerRows: number, dayRows: number) {
  await db.query(`INSERT INTO merchants (id, name, currency) VALUES ($1, 'Figures', 'IDR')`, [merchantId]);
  await db.query(
    `INSERT INTO ledger_figures (merchant_id, span, start, kind, count, money_in, money_out)
     SELECT $1, 1, to_timestamp(1780000000 + g % 600), 'payout', 1, 0, g FROM generate_series(1, $2::int) g`,
    [merchantId, ledgerRows],
  );
  await db.query(
    `INSERT INTO balance_daily (merchant_id, day, money_in, money_out, entries, first_entry_id, closing_entry_id, closing_balance)
     SELECT $1, '2026-05-28', 0, g, 1, g, g, -g FROM generate_series(1, $2::int) g`,
    [merchantId, dayRows],
  );
}

describe.each(backends)('figures compaction ($name)', (backend) => {
  it('folds 12,000 unmerged ledger rows and 6,000 per-day rows in one run, their sums kept', async () => {
    const db = await backend.open();
    try {
      await unmergedRows(db, 'acct_c', 12_000, 6_000);
      const sums = () =>
        db.query(
          `SELECT (SELECT count(*)::int FROM ledger_figures WHERE NOT merged) AS ledger_unmerged,
                  (SELECT count(*)::int FROM balance_daily WHERE NOT merged) AS daily_unmerged,
                  (SELECT sum(money_out)::bigint FROM ledger_figures WHERE merchant_id = 'acct_c') AS ledger_out,
                  (SELECT count(*)::int FROM ledger_figures WHERE merchant_id = 'acct_c') AS ledger_rows,
                  (SELECT sum(money_out)::bigint FROM balance_daily WHERE merchant_id = 'acct_c') AS daily_out`,
        );
      expect(await sums()).toEqual([
        { ledger_unmerged: 12000, daily_unmerged: 6000, ledger_out: 72006000, ledger_rows: 12000, daily_out: 18003000 },
      ]);
      expect(await compactAllFigures(db, 60_000)).toBe(18000);
      expect(await sums()).toEqual([
        { ledger_unmerged: 0, daily_unmerged: 0, ledger_out: 72006000, ledger_rows: 600, daily_out: 18003000 },
      ]);
    } finally {
      await db.close();
    }
  });

  it('vacuums a figures table its fold left 12,000 dead rows in, not one with 600, unless an autovacuum daemon runs', async () => {
    const db = await backend.open();
    try {
      await unmergedRows(db, 'acct_v', 12_000, 600);
      // The fold on one connection that reports its deletes to pg_stat_user_tables as soon as it commits: a server's
      // backend otherwise reports within a second or so, or ten under load, and the job would see them on a later run.
      const folded = await db.transaction(async (tx) => {
        const n = await compactAllFigures(tx, 60_000);
        await tx.query('SELECT pg_stat_force_next_flush()');
        return n;
      });
      expect(folded).toBe(12600);
      const upkeep = figuresUpkeep(db, 60_000);
      if (await autovacuumDaemonRuns(db)) return void expect((await upkeep()).vacuumed).toEqual([]);

      const vacuumed = new Set<string>();
      for (let i = 0; i < 40 && !vacuumed.has('ledger_figures'); i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 500));
        (await upkeep()).vacuumed.forEach((t) => vacuumed.add(t));
      }
      expect([...vacuumed]).toEqual(['ledger_figures']);
      const vacuums = await db.query<{ table: string; vacuums: number }>(
        `SELECT relname AS table, vacuum_count::int AS vacuums FROM pg_stat_user_tables
         WHERE schemaname = current_schema() AND relname IN ('ledger_figures', 'balance_daily') ORDER BY 1`,
      );
      expect(vacuums).toEqual([
        { table: 'balance_daily', vacuums: 0 },
        { table: 'ledger_figures', vacuums: 1 },
      ]);
      // On PGlite nothing else holds old rows visible: the dead rows are gone, and the next run has nothing to do.
      // (On a shared server another test's open transaction may keep some, which VACUUM then leaves counted.)
      if (db.kind === 'pglite') expect((await upkeep()).vacuumed).toEqual([]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
