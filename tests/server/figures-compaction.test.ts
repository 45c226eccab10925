// The figures_compaction job's run folds every table until it has caught up, not one batch of 5,000: under a write rate
// above that, the unmerged rows every read of their range sums would otherwise grow for as long as the load lasts.
import { describe, expect, it } from 'vitest';
import { compactAllFigures } from '@/lib/server/figures-compaction';
import { backends } from '../../testing/databases';

describe.each(backends)('figures compaction ($name)', (backend) => {
  it('folds 12,000 unmerged ledger rows and 6,000 per-day rows in one run, their sums kept', async () => {
    const db = await backend.open();
    try {
      await db.query(`INSERT INTO merchants (id, name, currency) VALUES ('acct_c', 'C', 'IDR')`);
      // As 12,000 statements of lone withdrawals write them: one row each, over 600 seconds, and a day row per statement.
      await db.query(
        `INSERT INTO ledger_figures (merchant_id, span, start, kind, count, money_in, money_out)
         SELECT 'acct_c', 1, to_timestamp(1780000000 + g % 600), 'payout', 1, 0, g FROM generate_series(1, 12000) g`,
      );
      await db.query(
        `INSERT INTO balance_daily (merchant_id, day, money_in, money_out, entries, first_entry_id, closing_entry_id, closing_balance)
         SELECT 'acct_c', '2026-05-28', 0, g, 1, g, g, -g FROM generate_series(1, 6000) g`,
      );
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
});
