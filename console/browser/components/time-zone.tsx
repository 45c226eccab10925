'use client';
import { createContext, useContext, type ReactNode } from 'react';
import { DEFAULT_TIME_ZONE } from '@/lib/contract/account-settings';
import { formatTime, zoneLabel } from '@/lib/format';

/**
 * The merchant's zone, read once per request on the server (console/server/data/merchant-zone.ts) and handed
 * down: server-rendered and hydrated markup then format every instant alike, in that zone.
 */
const TimeZoneContext = createContext<string>(DEFAULT_TIME_ZONE);

export function TimeZoneProvider({ zone, children }: { zone: string; children: ReactNode }) {
  return <TimeZoneContext.Provider value={zone}>{children}</TimeZoneContext.Provider>;
}

export const useTimeZone = () => useContext(TimeZoneContext);

/** An instant on the merchant's clock, with the zone's short name; the exact instant stays in `dateTime`. */
export function Time({ iso }: { iso: string }) {
  const zone = useTimeZone();
  return <time dateTime={iso}>{formatTime(iso, zone)}</time>;
}

/** The zone every time of the page is in, named both ways: WIB (Asia/Jakarta). */
export function ZoneNote() {
  const zone = useTimeZone();
  const label = zoneLabel(zone);
  return (
    <span className="zone-note" data-testid="time-zone" data-zone={zone}>
      Times in {label === zone ? zone : `${label} (${zone})`}
    </span>
  );
}
