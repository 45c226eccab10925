/**
 * Local days and months of an IANA zone as exact instants, with Intl only (the runtime's zone data).
 * A local midnight is found by two passes of "wall time minus the offset at the guess", which lands
 * on the right side of a daylight-saving change (Europe/Berlin's last Sunday of March and October).
 */

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function format(zone: string) {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, f);
  }
  return f;
}

function wallClock(zone: string, ms: number) {
  const parts: Record<string, number> = {};
  for (const p of format(zone).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return parts as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

/** The zone's offset from UTC at instant `ms`, in milliseconds (Asia/Jakarta: +7 h). */
export function offsetAt(zone: string, ms: number): number {
  const w = wallClock(zone, ms);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/** The local date at instant `ms`. */
export function localDate(zone: string, ms: number): LocalDate {
  const w = wallClock(zone, ms);
  return { year: w.year, month: w.month, day: w.day };
}

/** The instant the local day `d` starts (day and month may overflow: day 0, month 13 normalise as Date.UTC does). */
export function startOfLocalDay(zone: string, d: LocalDate): number {
  const wall = Date.UTC(d.year, d.month - 1, d.day);
  let t = wall - offsetAt(zone, wall);
  t = wall - offsetAt(zone, t);
  return t;
}

/** A local date `n` days after `d` (negative: before). */
export function addDays(d: LocalDate, n: number): LocalDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

export const formatLocalDate = (d: LocalDate) =>
  `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/** The month `YYYY-MM` in `zone` as [from, to) instants. */
export function monthRange(zone: string, month: string): { from: number; to: number } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return { from: startOfLocalDay(zone, { year, month: m, day: 1 }), to: startOfLocalDay(zone, { year, month: m + 1, day: 1 }) };
}

/** The last month that has ended in `zone` at instant `now`, as YYYY-MM. */
export function lastCompleteMonth(zone: string, now: number): string {
  const d = localDate(zone, now);
  const t = new Date(Date.UTC(d.year, d.month - 2, 1));
  return `${t.getUTCFullYear()}-${String(t.getUTCMonth() + 1).padStart(2, '0')}`;
}
