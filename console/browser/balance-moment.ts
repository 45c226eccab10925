import { addDays, dayInZone, isCalendarDay, zoneOffsetMs } from '../../lib/contract';

/** A moment the balance page is asked about: a day and a minute on the merchant's clock (23:59 on 31 October). */
export interface BalanceMoment {
  day: string;
  time: string;
}

/** The page's query (`at_day`, `at_time`), or null when it asks no (or no valid) moment; the time defaults to 23:59. */
export function readBalanceMoment(query: { at_day?: string; at_time?: string }): BalanceMoment | null {
  if (typeof query.at_day !== 'string' || !isCalendarDay(query.at_day)) return null;
  const time = typeof query.at_time === 'string' && /^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(query.at_time) ? query.at_time : '23:59';
  return { day: query.at_day, time };
}

/**
 * The exact instant that minute ends on the zone's clock (23:59 means up to 23:59:59.999, so every change booked in
 * that minute counts), as get_balance's `as_of`. The offset is the one in force then (summer time included).
 */
export function momentInstant({ day, time }: BalanceMoment, zone: string): string {
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wall = Date.parse(`${day}T00:00:00Z`) + (hh * 60 + mm) * 60_000 + 59_999;
  const guess = wall - zoneOffsetMs(wall, zone);
  return new Date(wall - zoneOffsetMs(guess, zone)).toISOString();
}

/**
 * What the balance page asks the API for: the moment's instant (null when none is asked), whether it is still to
 * come (the API refuses those), and the day the form suggests (yesterday on the zone's clock).
 */
export function balanceMomentQuery(query: { at_day?: string; at_time?: string }, zone: string, now = Date.now()) {
  const moment = readBalanceMoment(query);
  const asOf = moment && momentInstant(moment, zone);
  return { moment, asOf, future: asOf !== null && Date.parse(asOf) > now, suggestedDay: addDays(dayInZone(now, zone), -1) };
}
