import { z } from 'zod';
import { REFUND_STATUSES, type ActionRequest } from '../../lib/contract';
import { addDays, isCalendarDay, startOfDayInZone } from '../../lib/contract/time-zone';

/**
 * The refunds page's view as its URL holds it (`?status&from&to`), so a link reproduces it; the CSV export takes the
 * same query. Dates are whole days of the merchant's zone: `from` starts at its local midnight, `to` includes its day.
 */
const day = (name: string) =>
  z
    .string()
    .refine(isCalendarDay, { error: `${name} must be a date (YYYY-MM-DD)` })
    .optional()
    .catch(undefined);

export const refundViewQuery = z.object({
  status: z.enum(REFUND_STATUSES).optional().catch(undefined),
  from: day('from'),
  to: day('to'),
});
export type RefundView = z.infer<typeof refundViewQuery>;
export type RefundFilter = Omit<ActionRequest<'list_refunds'>, 'action' | 'limit' | 'starting_after'>;

/** The API filter of a view, its days read in `zone`. */
export function refundFilterOf(view: RefundView, zone: string): RefundFilter {
  return {
    ...(view.status ? { status: view.status } : {}),
    ...(view.from ? { created_gte: startOfDayInZone(view.from, zone).toISOString() } : {}),
    ...(view.to ? { created_lt: startOfDayInZone(addDays(view.to, 1), zone).toISOString() } : {}),
  };
}

/** The view back as a query string (empty values left out). */
export function refundViewSearch(view: RefundView, extra: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...view, ...extra })) if (value) params.set(key, value);
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The page's search params (a repeated one counts once, an empty one not at all). */
export function readRefundView(params: Record<string, string | string[] | undefined>): RefundView {
  const plain: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v) plain[key] = v;
  }
  return refundViewQuery.parse(plain);
}
