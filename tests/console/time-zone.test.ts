// Days in the merchant's zone and the instants they start at (lib/contract/time-zone.ts): across daylight saving
// (Europe/Berlin), a +05:45 zone (Asia/Kathmandu), a zone whose clocks jump over midnight (America/Santiago),
// and the console's formatting of an instant in the zone it names.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTimeZone } from '@/lib/contract/account-settings';
import { addDays, dayInZone, daysInZone, isCalendarDay, startOfDayInZone, timeZoneChoices, zoneOffsetMs } from '@/lib/contract/time-zone';
import { formatTime, zoneLabel } from '@/lib/format';

const iso = (d: Date) => d.toISOString();

describe('start of a day in a zone', () => {
  it.each([
    ['Asia/Jakarta', '2026-10-31', '2026-10-30T17:00:00.000Z'],
    ['Asia/Kathmandu', '2026-01-01', '2025-12-31T18:15:00.000Z'],
    ['UTC', '2026-02-28', '2026-02-28T00:00:00.000Z'],
    // Berlin: winter +01:00, summer +02:00; the clocks change at 01:00 UTC on the last Sunday of March and October.
    ['Europe/Berlin', '2026-03-28', '2026-03-27T23:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29', '2026-03-28T23:00:00.000Z'],
    ['Europe/Berlin', '2026-03-30', '2026-03-29T22:00:00.000Z'],
    ['Europe/Berlin', '2026-10-25', '2026-10-24T22:00:00.000Z'],
    ['Europe/Berlin', '2026-10-26', '2026-10-25T23:00:00.000Z'],
    // Santiago moves its clocks forward at 24:00: 6 September 2026 starts at 01:00 local, the instant of the jump.
    ['America/Santiago', '2026-09-06', '2026-09-06T04:00:00.000Z'],
  ])('%s, %s begins at %s', (zone, day, instant) => {
    expect(iso(startOfDayInZone(day, zone))).toBe(instant);
    expect(dayInZone(startOfDayInZone(day, zone), zone)).toBe(day);
    expect(dayInZone(startOfDayInZone(day, zone).getTime() - 1, zone)).toBe(addDays(day, -1));
  });

  it('makes Berlin days of 23 and 25 hours and Kathmandu days of 24, as their clocks do', () => {
    const hours = (zone: string, day: string) => {
      const { gte, lt } = daysInZone(day, day, zone);
      return (lt.getTime() - gte.getTime()) / 3_600_000;
    };
    expect(hours('Europe/Berlin', '2026-03-29')).toBe(23);
    expect(hours('Europe/Berlin', '2026-10-25')).toBe(25);
    expect(hours('Europe/Berlin', '2026-06-01')).toBe(24);
    expect(hours('Asia/Kathmandu', '2026-03-29')).toBe(24);
    expect(zoneOffsetMs(Date.parse('2026-05-01T00:00:00Z'), 'Asia/Kathmandu')).toBe((5 * 60 + 45) * 60_000);
  });

  it.each(['Europe/Berlin', 'Asia/Kathmandu', 'Asia/Jakarta', 'America/Santiago', 'Australia/Lord_Howe'])(
    'in %s, every instant lies in the day dayInZone names, between its start and the next day start',
    (zone) => {
      fc.assert(
        fc.property(fc.integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: Date.parse('2040-01-01T00:00:00Z') }), (t) => {
          const day = dayInZone(t, zone);
          const start = startOfDayInZone(day, zone).getTime();
          const next = startOfDayInZone(addDays(day, 1), zone).getTime();
          expect(start).toBeLessThanOrEqual(t);
          expect(t).toBeLessThan(next);
          expect(dayInZone(start, zone)).toBe(day);
          expect(dayInZone(start - 1, zone)).toBe(addDays(day, -1));
        }),
        { numRuns: 300 },
      );
    },
  );

  it('offers every zone the contract accepts, UTC and the Indonesian ones among them', () => {
    const zones = timeZoneChoices();
    expect(zones).toEqual(expect.arrayContaining(['Asia/Jakarta', 'Asia/Makassar', 'Asia/Jayapura', 'UTC', 'Europe/Berlin']));
    expect(zones.filter((z) => !isTimeZone(z))).toEqual([]);
  });

  it('refuses what is not a calendar day', () => {
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-1-01')).toBe(false);
    expect(() => startOfDayInZone('2026-02-30', 'Asia/Jakarta')).toThrow(RangeError);
  });
});

describe('the console formats instants in the merchant zone', () => {
  const at = '2026-10-31T17:30:05.000Z';
  it.each([
    ['Asia/Jakarta', '1 Nov 2026, 00:30:05 WIB', 'WIB'],
    ['Asia/Makassar', '1 Nov 2026, 01:30:05 WITA', 'WITA'],
    ['Europe/Berlin', '31 Oct 2026, 18:30:05 CET', 'CET'],
    ['Asia/Kathmandu', '31 Oct 2026, 23:15:05 GMT+5:45', 'GMT+5:45'],
    ['UTC', '31 Oct 2026, 17:30:05 UTC', 'UTC'],
  ])('%s: %s', (zone, shown, label) => {
    expect(formatTime(at, zone)).toBe(shown);
    expect(zoneLabel(zone, Date.parse(at))).toBe(label);
  });

  it('names summer time by its own name', () => {
    expect(formatTime('2026-07-01T12:00:00Z', 'Europe/Berlin')).toBe('1 Jul 2026, 14:00:00 CEST');
  });
});
