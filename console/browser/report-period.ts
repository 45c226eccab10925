import { addDays, isCalendarDay, lastCompleteMonth, monthInZone, startOfDayInZone, zoneOffsetMs } from '../../lib/contract';

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

const dayWords = (day: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.parse(`${day}T00:00:00Z`));

/**
 * What is wrong with a range of days the form sent, in words that say what to do; null when nothing is.
 * The range form stops such a range in the browser; the page says the same for a typed address.
 */
export function rangeProblem(query: { from?: string; to?: string }, maxDays: number): string | null {
  const { from, to } = query;
  if (typeof from !== 'string' || typeof to !== 'string' || !isCalendarDay(from) || !isCalendarDay(to)) return null;
  if (to < from)
    return `The end date (${dayWords(to)}) is before the start date (${dayWords(from)}): pick an end date on or after ${dayWords(from)}.`;
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  if (days > maxDays)
    return `${dayWords(from)} to ${dayWords(to)} is ${days} days: a statement covers at most ${maxDays} days. Pick dates closer together, or show one month at a time.`;
  return null;
}

/** The period as [from, to) instants (ISO), as the statement and its lines are asked for. */
export function periodInstants(period: ReportPeriod, zone: string): { from: string; to: string } {
  if ('month' in period) {
    const { from, to } = monthInZone(period.month, zone);
    return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
  }
  return statementRequest(period, zone) as { from: string; to: string };
}

/** The CSV's file name, named for the period in the merchant's zone: statement-2026-11.csv, or statement-2026-11-03-2026-11-09.csv. */
export const statementFileName = (period: ReportPeriod) =>
  'month' in period ? `statement-${period.month}.csv` : `statement-${period.fromDate}-${period.toDate}.csv`;

/** The page's query for the period (the CSV link takes the same). */
export const periodQuery = (period: ReportPeriod) =>
  new URLSearchParams('month' in period ? { month: period.month } : { from: period.fromDate, to: period.toDate }).toString();

/** An instant on the zone's clock with its offset, to the second: 2026-11-28T00:47:00+07:00 (what a spreadsheet and a person read alike). */
export function isoInZone(iso: string, zone: string): string {
  const at = Date.parse(iso);
  const offset = zoneOffsetMs(at, zone);
  const wall = new Date(Math.floor(at / 1000) * 1000 + offset).toISOString().slice(0, 19);
  const minutes = Math.abs(offset) / 60_000;
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${wall}${offset < 0 ? '-' : '+'}${hh}:${mm}`;
}
