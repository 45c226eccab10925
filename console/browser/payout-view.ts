import { z } from 'zod';
import { isId, payoutStatusField, type ActionRequest } from '../../lib/contract';
import { addDays, isCalendarDay, startOfDayInZone } from '../../lib/contract/time-zone';

/**
 * The payouts page's view as its URL holds it (`?q&status&from&to`), so a link
 * reproduces it; the CSV export takes the same query. Dates are whole days of the
 * merchant's zone, as the console shows every time in it: `from` starts at its
 * local midnight, `to` includes its day.
 */
const day = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${name} must be a date (YYYY-MM-DD)` })
    .refine(isCalendarDay, { error: `${name} must be a real date` })
    .optional();

/** `q` names one payout (the page opens it) rather than a filter. */
export const isPayoutId = (q: string | undefined): q is string => q !== undefined && isId('po', q);

export const payoutViewQuery = z.object({
  q: z
    .string()
    .trim()
    .refine((q) => q === '' || isId('po', q) || /^[0-9]{4}$/.test(q), {
      error: 'q must be a payout id (po_…) or the last four digits of an account',
    })
    .optional(),
  status: payoutStatusField.optional(),
  from: day('from'),
  to: day('to'),
});

export type PayoutView = z.infer<typeof payoutViewQuery>;
export type PayoutFilter = Omit<ActionRequest<'summarize_payouts'>, 'action'>;

const dayStart = (day: string, zone: string) => startOfDayInZone(day, zone).toISOString();

/** The API filter of a view, its days read in `zone` (a payout id in `q` is not a filter: the page opens that payout). */
export function payoutFilterOf(view: PayoutView, zone: string): PayoutFilter {
  return {
    ...(view.status ? { status: view.status } : {}),
    ...(view.q && /^[0-9]{4}$/.test(view.q) ? { account_last4: view.q } : {}),
    ...(view.from ? { created_gte: dayStart(view.from, zone) } : {}),
    ...(view.to ? { created_lt: dayStart(addDays(view.to, 1), zone) } : {}),
  };
}

/** The view back as a query string (empty values left out), for links to the export and to itself. */
export function payoutViewSearch(view: PayoutView): string {
  const params = new URLSearchParams();
  for (const key of ['q', 'status', 'from', 'to'] as const) if (view[key]) params.set(key, view[key]!);
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The page's search params (a repeated one counts once, an empty one or status=all not at all), checked. */
export function readPayoutView(params: Record<string, string | string[] | undefined>) {
  const plain: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v && !(key === 'status' && v === 'all')) plain[key] = v;
  }
  return payoutViewQuery.safeParse(plain);
}
