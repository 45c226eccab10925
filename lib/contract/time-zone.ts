/**
 * Calendar days in an IANA zone and the exact instants they start at, with Intl alone
 * (formatToParts with timeZone): a merchant's "1 October" is Jakarta's, and in a zone with
 * daylight saving a day is 23 or 25 hours long. Pure: the core and the console share it.
 */

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();
function wallFormatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The zone's wall clock at `instant`, read as if it were UTC (ms since the epoch, whole seconds). */
function wallClock(instant: number, zone: string): number {
  const p: Record<string, number> = {};
  for (const part of wallFormatter(zone).formatToParts(instant)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

/** How far the zone's clock is ahead of UTC at `instant`, in ms (Asia/Jakarta: 7 h; Asia/Kathmandu: 5 h 45 min). */
export function zoneOffsetMs(instant: number, zone: string): number {
  return wallClock(instant, zone) - Math.floor(instant / 1000) * 1000;
}

/** The zone's calendar day at `instant`, YYYY-MM-DD. */
export function dayInZone(instant: number | Date, zone: string): string {
  return new Date(wallClock(+instant, zone)).toISOString().slice(0, 10);
}

/** Whether `day` is a real calendar date written YYYY-MM-DD (no 30 February). */
export function isCalendarDay(day: string): boolean {
  const m = DAY_PATTERN.exec(day);
  if (!m) return false;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === day && Number(m[1]) >= 1;
}

/** The calendar day `n` days after `day` (before, for a negative `n`): calendar arithmetic, no zone involved. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The exact instant `day` begins in `zone`: its first moment, local midnight. Where midnight
 * happens twice (clocks set back at midnight) the first one; where it never happens (clocks
 * jump over it) the moment of the jump, when the day starts.
 */
export function startOfDayInZone(day: string, zone: string): Date {
  if (!isCalendarDay(day)) throw new RangeError(`not a calendar day: ${day}`);
  const midnight = Date.parse(`${day}T00:00:00Z`);
  // The offsets in force around that day: a zone changes its offset at most once in a few days.
  const offsets = [
    ...new Set([zoneOffsetMs(midnight - 2 * DAY_MS, zone), zoneOffsetMs(midnight, zone), zoneOffsetMs(midnight + 2 * DAY_MS, zone)]),
  ];
  const exact = offsets.map((o) => midnight - o).filter((t) => wallClock(t, zone) === midnight);
  if (exact.length > 0) return new Date(Math.min(...exact));
  // Midnight skipped: the day starts at the jump, between the candidates (before it: the day before).
  let lo = Math.min(...offsets.map((o) => midnight - o));
  let hi = Math.max(...offsets.map((o) => midnight - o));
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (dayInZone(mid, zone) >= day) hi = mid;
    else lo = mid;
  }
  return new Date(hi);
}

/** The instants a run of whole days covers in `zone`: from the start of `from` to the start of the day after `to`. */
export function daysInZone(from: string, to: string, zone: string): { gte: Date; lt: Date } {
  return { gte: startOfDayInZone(from, zone), lt: startOfDayInZone(addDays(to, 1), zone) };
}

/** The zones a merchant may choose from: every IANA zone this runtime knows, UTC among them (some runtimes list it apart). */
export function timeZoneChoices(): string[] {
  return [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])].sort();
}
