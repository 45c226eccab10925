import { z } from 'zod';
import { BALANCE_TRANSACTION_TYPES } from './balance-transactions';
import { startOfDayInZone, dayInZone } from './time-zone';

/**
 * The balance at a moment and statements (docs/api.md, "Statements"): periods are read in the
 * merchant's time zone (get_account_settings). Pure zod.
 */

/** A statement covers at most this many days (a year, leap day included). */
export const MAX_STATEMENT_DAYS = 366;

const isoTime = (field: string) => z.iso.datetime({ offset: true, error: `${field} must be an ISO 8601 time with an offset` });

/** get_balance's optional instant: `available` as it stood then (a future time is refused by the core, which knows the clock). */
export const balanceAsOfFields = { as_of: isoTime('as_of').optional() };

export const statementMonthField = z
  .string({ error: 'month must be a month as YYYY-MM' })
  .regex(/^[0-9]{4}-(0[1-9]|1[0-2])$/, { error: 'month must be a month as YYYY-MM' });

/** Either `month` (in the merchant's zone) or `from` and `to` (exact instants); the core checks which and the span. */
export const statementFields = {
  month: statementMonthField.optional(),
  from: isoTime('from').optional(),
  to: isoTime('to').optional(),
};

const figure = z.object({ amount: z.number().int(), count: z.int().nonnegative() });

/** One entry per balance-transaction type, zeros included: a type added to the contract appears here by itself. */
export const statementTotalsSchema = z.object(
  Object.fromEntries(BALANCE_TRANSACTION_TYPES.map((t) => [t, figure])) as Record<
    (typeof BALANCE_TRANSACTION_TYPES)[number],
    typeof figure
  >,
);

export const statementSchema = z.object({
  object: z.literal('statement'),
  /** The zone the period was read in (the merchant's). */
  time_zone: z.string(),
  /** The period's exact instants, [from, to). */
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
  currency: z.string(),
  /** `available` just before `from`. */
  opening_balance: z.number().int().nonnegative(),
  /** `available` just before `to`: opening_balance plus every total's amount. */
  closing_balance: z.number().int().nonnegative(),
  totals: statementTotalsSchema,
});
export type Statement = z.infer<typeof statementSchema>;

/** The month `YYYY-MM` in `zone` as [from, to) instants: its first midnight and the next month's. */
export function monthInZone(month: string, zone: string): { from: number; to: number } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const next = new Date(Date.UTC(year, m, 1)).toISOString().slice(0, 10);
  return { from: startOfDayInZone(`${month}-01`, zone).getTime(), to: startOfDayInZone(next, zone).getTime() };
}

/** The last month that has ended in `zone` at `instant`, as YYYY-MM. */
export function lastCompleteMonth(instant: number, zone: string): string {
  const [year, m] = dayInZone(instant, zone).split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, m - 2, 1)).toISOString().slice(0, 7);
}
