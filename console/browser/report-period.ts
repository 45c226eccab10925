import { addDays, isCalendarDay, lastCompleteMonth, startOfDayInZone } from '../../lib/contract';

/** What the reports page was asked for: a month (YYYY-MM) or a range of days in the zone, both ends included. */
export type ReportPeriod = { month: string } | { fromDate: string; toDate: string };

/** The period of the page's query; the last complete month in the zone when none (or a malformed one) is given. */
export function reportPeriod(query: { month?: string; from?: string; to?: string }, zone: string, now = Date.now()): ReportPeriod {
  if (typeof query.from === 'string' && typeof query.to === 'string' && isCalendarDay(query.from) && isCalendarDay(query.to)) {
    return { fromDate: query.from, toDate: query.to };
  }
  if (typeof query.month === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(query.month)) return { month: query.month };
  return { month: lastCompleteMonth(now, zone) };
}

/** get_statement's request for the period: a range of days is [the first day's start, the start of the day after the last) in the zone. */
export function statementRequest(period: ReportPeriod, zone: string): { month: string } | { from: string; to: string } {
  if ('month' in period) return { month: period.month };
  return {
    from: startOfDayInZone(period.fromDate, zone).toISOString(),
    to: startOfDayInZone(addDays(period.toDate, 1), zone).toISOString(),
  };
}

/** "1 Oct 2026 – 31 Oct 2026" for [from, to) read in the zone. */
export function periodLabel(from: string, to: string, zone: string): string {
  const f = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: zone });
  return `${f.format(new Date(from))} – ${f.format(new Date(Date.parse(to) - 1))}`;
}

/** A balance-transaction type as words: payout_reversal → "Payout reversal" (a type added later reads the same way). */
export const typeLabel = (type: string) => type.charAt(0).toUpperCase() + type.slice(1).replaceAll('_', ' ');
