// Migration 41 on a database with history: entries whose transaction started first but changed the balance second (an
// older time on a later entry) are brought into balance order, the per-day figures of the UTC days they left or
// entered are rebuilt, and the ledger figures are back-filled (per hour and day, and per minute and second by migration 87); from then on the trigger keeps them.
import { describe, expect, it } from 'vitest';
import { migrate } from '@/lib/db/migrate';
import { migrations } from '@/lib/db/migrations';
import { balanceAsOf, rangeFigures } from '@/lib/payments/ledger/ledger-figures';
import { backends } from '../../testing/databases';

describe.each(backends)('migration 41 ($name)', (backend) => {
  it('orders existing entries by the balance, rebuilds the days they crossed, and back-fills the ledger figures', async () => {
    const db = await backend.openEmpty();
    try {
      await migrate(
        db,
        migrations.filter((m) => m.version <= 40),
      );
      await db.query(`INSERT INTO merchants (id, name, currency) VALUES ('acct_h', 'H', 'IDR')`);
      await db.query(`INSERT INTO balances (merchant_id, currency, available) VALUES ('acct_h', 'IDR', 65000)`);
      // The third entry's transaction started (its now()) before midnight, but it locked the balance after the second.
      await db.query(
        `INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id, created_at) VALUES
           ('acct_h', 100000, 100000, 'opening_balance', 'acct_h', '2026-01-01T10:00:00Z'),
           ('acct_h', -40000, 60000, 'payout', 'po_1', '2026-01-02T00:00:00.002Z'),
           ('acct_h', 5000, 65000, 'topup', 't1', '2026-01-01T23:59:59.999Z')`,
      );
      expect(await migrate(db)).toEqual(migrations.filter((m) => m.version > 40).map((m) => m.version));
      const times = await db.query<{ created_at: Date }>(`SELECT created_at FROM ledger_entries WHERE merchant_id = 'acct_h' ORDER BY id`);
      expect(times.map((r) => new Date(r.created_at).toISOString())).toEqual([
        '2026-01-01T10:00:00.000Z',
        '2026-01-02T00:00:00.002Z',
        '2026-01-02T00:00:00.002Z',
      ]);
      const days = await db.query(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(money_in)::bigint AS i, sum(money_out)::bigint AS o, sum(entries)::int AS n,
                (array_agg(closing_balance ORDER BY closing_entry_id DESC))[1] AS c
         FROM balance_daily WHERE merchant_id = 'acct_h' GROUP BY day ORDER BY day`,
      );
      expect(days).toEqual([
        { day: '2026-01-01', i: 100000, o: 0, n: 1, c: 100000 },
        { day: '2026-01-02', i: 5000, o: 40000, n: 2, c: 65000 },
      ]);
      // The balance at an instant and the figures agree with the sums over the ledger.
      const at = Date.parse('2026-01-02T00:00:00.002Z');
      expect([await balanceAsOf(db, 'acct_h', at - 1), await balanceAsOf(db, 'acct_h', at)]).toEqual([100000, 65000]);
      // Migration 87's minutes and seconds too: the last range is a second, its minute, then hours to midnight.
      const [day1, hour, fine] = await rangeFigures(db, 'acct_h', [
        { from: Date.parse('2026-01-02T00:00:00Z'), to: Date.parse('2026-01-03T00:00:00Z') },
        { from: Date.parse('2026-01-01T10:00:00Z'), to: Date.parse('2026-01-01T11:00:00Z') },
        { from: Date.parse('2026-01-01T09:59:59Z'), to: Date.parse('2026-01-02T00:00:00.001Z') },
      ]);
      expect(Object.fromEntries(day1!)).toEqual({
        payout: { count: 1, money_in: 0, money_out: 40000 },
        topup: { count: 1, money_in: 5000, money_out: 0 },
      });
      expect(Object.fromEntries(hour!)).toEqual({ opening_balance: { count: 1, money_in: 100000, money_out: 0 } });
      expect(Object.fromEntries(fine!)).toEqual({ opening_balance: { count: 1, money_in: 100000, money_out: 0 } });
      const spans = await db.query(
        `SELECT span, count(*)::int AS n FROM ledger_figures WHERE merchant_id = 'acct_h' GROUP BY span ORDER BY span`,
      );
      expect(spans).toEqual([
        { span: 1, n: 3 },
        { span: 60, n: 3 },
        { span: 3600, n: 3 },
        { span: 86400, n: 3 },
      ]);
      // New entries are timed when written: after every earlier one of the merchant.
      await db.query(
        `WITH bal AS (UPDATE balances SET available = available + 1 WHERE merchant_id = 'acct_h' RETURNING available)
         INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id) SELECT 'acct_h', 1, available, 'topup', 't2' FROM bal`,
      );
      expect(await balanceAsOf(db, 'acct_h', Date.now())).toBe(65001);
    } finally {
      await db.close();
    }
  });
});

// Migrations 87-88: the minutes and seconds of the entries written before 87 are added in steps, those written after
// come from the trigger, none counted twice; a run stopped half way goes on where it stopped; the quarter hours go last.
describe.each(backends)('migrations 87-88 ($name)', (backend) => {
  it('back-fills the minutes and seconds of earlier entries in steps, exactly, and goes on after an interruption', async () => {
    const db = await backend.openEmpty();
    try {
      await migrate(
        db,
        migrations.filter((m) => m.version <= 86),
      );
      await db.query(`INSERT INTO merchants (id, name, currency) VALUES ('acct_f', 'F', 'IDR')`);
      const entry = (amount: number, after: number, ref: string, at: string) =>
        db.query(
          `INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id, created_at) VALUES ('acct_f', $1, $2, 'topup', $3, $4)`,
          [amount, after, ref, at],
        );
      // Five entries before 87, a second apart in one minute, each its own statement.
      for (let i = 1; i <= 5; i++) await entry(i, (i * (i + 1)) / 2, `b${i}`, `2026-02-01T08:00:0${i}.500Z`);
      expect(
        await migrate(
          db,
          migrations.filter((m) => m.version === 87),
        ),
      ).toEqual([87]);
      // One after 87 in the same second as the last: the new trigger counts it.
      await entry(100, 115, 'a1', '2026-02-01T08:00:05.900Z');
      // Two steps of two entries (of five), then the run stops.
      for (let i = 0; i < 2; i++) await db.query(`SELECT ledger_fine_figures_backfill(null, 2)`);
      expect(await db.query(`SELECT upto::int, done::int FROM ledger_fine_backfill`)).toEqual([{ upto: 5, done: 4 }]);
      // Started again, the migration goes on from entry 5 and ends with the quarter hours deleted.
      expect(await migrate(db)).toEqual(migrations.filter((m) => m.version >= 88).map((m) => m.version));
      const spans = await db.query<{ span: number }>(`SELECT DISTINCT span FROM ledger_figures ORDER BY span`);
      expect(spans.map((s) => s.span)).toEqual([1, 60, 3600, 86400]);
      const fig = async (from: string, to: string) =>
        Object.fromEntries((await rangeFigures(db, 'acct_f', [{ from: Date.parse(from), to: Date.parse(to) }]))[0]!);
      // Whole seconds: [08:00:01, 08:00:05) is entries 1-4; the second 08:00:05 holds entry 5 and the later one.
      expect(await fig('2026-02-01T08:00:01Z', '2026-02-01T08:00:05Z')).toEqual({ topup: { count: 4, money_in: 10, money_out: 0 } });
      expect(await fig('2026-02-01T08:00:05Z', '2026-02-01T08:00:06Z')).toEqual({ topup: { count: 2, money_in: 105, money_out: 0 } });
      // A whole minute, and a period read as seconds and a minute between two instants.
      expect(await fig('2026-02-01T08:00:00Z', '2026-02-01T08:01:00Z')).toEqual({ topup: { count: 6, money_in: 115, money_out: 0 } });
      expect(await fig('2026-02-01T07:58:59.999Z', '2026-02-01T08:00:05.600Z')).toEqual({
        topup: { count: 5, money_in: 15, money_out: 0 },
      });
    } finally {
      await db.close();
    }
  });
});
