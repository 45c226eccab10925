// The balance at a moment and statements against a sum over the ledger itself: random histories (entries at random
// instants, some exactly on hour and day boundaries, written in several statements with folds between them), random
// instants and random periods, including zone days and months across Europe/Berlin's change to summer time (29 March
// 2026), Asia/Jakarta and Asia/Kolkata (+5:30, whose days are not whole UTC hours). Zone days come from Temporal (the
// runtime's own implementation), not from the code under test.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BALANCE_TRANSACTION_TYPES } from '@/lib/contract';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { compactLedgerFigures } from '@/lib/payments/ledger/ledger-figures';
import { callApi, useTestApi } from '../helpers/api-server';
import { backends } from '../../testing/databases';

/** The part of Temporal this test uses (TypeScript's lib has no types for it yet). */
interface PlainDate {
  add(d: { days?: number; months?: number }): PlainDate;
  toZonedDateTime(zone: string): { epochMilliseconds: number };
}
const Temporal = (globalThis as { Temporal?: { PlainDate: { from(s: string): PlainDate } } }).Temporal;
const START = Date.parse('2026-03-28T00:00:00Z');
const SPAN = 3 * 86_400_000;
const ZONES = ['Europe/Berlin', 'Asia/Jakarta', 'Asia/Kolkata'] as const;
const KINDS = ['adjustment', 'topup', 'checkout_payment', 'payout', 'payout_reversal', 'payout_return', 'refund'] as const;
const OUT = new Set(['payout', 'refund']);

const instant = fc.oneof(
  fc.integer({ min: 0, max: SPAN - 1 }).map((ms) => START + ms),
  // On a quarter hour (an hour, a UTC day, a Kolkata midnight at 18:30Z), a minute or a second (the edges of the
  // figures), or a millisecond either side of one.
  fc
    .constantFrom(900_000, 60_000, 1_000)
    .chain((unit) => fc.tuple(fc.constant(unit), fc.integer({ min: 1, max: SPAN / unit - 1 }), fc.constantFrom(-1, 0, 0, 1)))
    .map(([unit, q, d]) => START + q * unit + d),
  // Within 90 s of one of three instants (an hour, a UTC midnight, a Kolkata midnight): entries and a period's ends
  // close together, so that the whole seconds and minutes at a period's ends hold entries.
  fc
    .tuple(fc.constantFrom(3_600_000, 86_400_000, 2 * 86_400_000 - 5.5 * 3_600_000), fc.integer({ min: -90_000, max: 90_000 }))
    .map(([at, d]) => START + at + d),
);
const entry = fc.record({ at: instant, kind: fc.constantFrom(...KINDS), amount: fc.integer({ min: 1, max: 500_000 }) });
const zoneDay = fc.record({ zone: fc.constantFrom(...ZONES), day: fc.integer({ min: 0, max: 2 }) });
const localDayStart = (zone: string, day: number) =>
  Number(Temporal!.PlainDate.from('2026-03-28').add({ days: day }).toZonedDateTime(zone).epochMilliseconds);

describe.runIf(Temporal).each(backends)('as_of and statements equal sums over the ledger ($name)', (backend) => {
  const api = useTestApi(backend);

  it('at random instants and periods, across zone day boundaries and a daylight-saving change', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(entry, { maxLength: 20 }), { minLength: 1, maxLength: 4 }),
        fc.array(instant, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(instant, instant), { minLength: 1, maxLength: 4 }),
        fc.array(zoneDay, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...ZONES),
        fc.boolean(),
        async (statements, instants, periods, zoneDays, zone, fold) => {
          const { db, url } = api();
          const m = await createMerchant(db, { name: 'Property', openingBalance: 0 });
          const call = (body: Record<string, unknown>) => callApi(url, m.secretKey, body);
          expect((await call({ action: 'update_account_settings', time_zone: zone })).status).toBe(200);
          // Entries in time order (as the ledger writes them), each statement a slice of it.
          const all = statements.flat().sort((a, b) => a.at - b.at);
          let balance = 0;
          let i = 0;
          for (const group of statements) {
            const rows = all.slice(i, i + group.length).flatMap((e) => {
              const amount = OUT.has(e.kind) ? -Math.min(e.amount, balance) : e.amount;
              if (amount === 0) return [];
              balance += amount;
              return [{ ...e, amount, after: balance, ref: `r${run}_${i++}` }];
            });
            i += group.length - rows.length;
            if (rows.length === 0) continue;
            await db.query(
              `INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id, created_at)
               SELECT $1, e.amount, e.after, e.kind, e.ref, e.at FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::timestamptz[])
                 WITH ORDINALITY AS e(amount, after, kind, ref, at, n) ORDER BY e.n`,
              [
                m.id,
                rows.map((r) => r.amount),
                rows.map((r) => r.after),
                rows.map((r) => r.kind),
                rows.map((r) => r.ref),
                rows.map((r) => new Date(r.at).toISOString()),
              ],
            );
            if (fold) await compactLedgerFigures(db, 7);
          }
          run++;
          const sumUpTo = async (ms: number, op: '<' | '<=') => {
            const [r] = await db.query<{ s: string }>(
              `SELECT COALESCE(sum(amount), 0)::text AS s FROM ledger_entries WHERE merchant_id = $1 AND created_at ${op} $2`,
              [m.id, new Date(ms).toISOString()],
            );
            return Number(r!.s);
          };
          for (const t of instants) {
            const res = await call({ action: 'get_balance', as_of: new Date(t).toISOString() });
            expect([t, res.body.available]).toEqual([t, await sumUpTo(t + 1, '<')]);
          }
          const check = async (from: number, to: number, body: Record<string, unknown>) => {
            const res = await call({ action: 'get_statement', ...body });
            expect([body, res.status]).toEqual([body, 200]);
            const s = res.body;
            expect([s.from, s.to]).toEqual([new Date(from).toISOString(), new Date(to).toISOString()]);
            const rows = await db.query<{ kind: string; amount: string; count: number }>(
              `SELECT kind, sum(amount)::text AS amount, count(*)::int AS count FROM ledger_entries
               WHERE merchant_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY kind`,
              [m.id, new Date(from).toISOString(), new Date(to).toISOString()],
            );
            const want = Object.fromEntries(BALANCE_TRANSACTION_TYPES.map((t) => [t, { amount: 0, count: 0 }]));
            for (const r of rows) want[r.kind] = { amount: Number(r.amount), count: r.count };
            expect({ body, totals: s.totals, opening: s.opening_balance, closing: s.closing_balance }).toEqual({
              body,
              totals: want,
              opening: await sumUpTo(from, '<'),
              closing: await sumUpTo(to, '<'),
            });
          };
          for (const [a, b] of periods) {
            if (a === b) continue;
            const [from, to] = a < b ? [a, b] : [b, a];
            await check(from, to, { from: new Date(from).toISOString(), to: new Date(to).toISOString() });
          }
          for (const d of zoneDays) {
            const from = localDayStart(d.zone, d.day);
            const to = localDayStart(d.zone, d.day + 1);
            await check(from, to, { from: new Date(from).toISOString(), to: new Date(to).toISOString() });
          }
          for (const month of ['2026-03', '2026-04']) {
            const from = Number(Temporal!.PlainDate.from(`${month}-01`).toZonedDateTime(zone).epochMilliseconds);
            const to = Number(Temporal!.PlainDate.from(`${month}-01`).add({ months: 1 }).toZonedDateTime(zone).epochMilliseconds);
            await check(from, to, { month });
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 300_000);
});
