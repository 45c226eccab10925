import type { EventType } from '../../contract';
import { iso } from '../pipeline/api-object';
import { eventDataSql } from './event-sql';

/** An event as list_events, get_event and a webhook delivery read and answer it. */

export interface EventRow {
  id: string;
  type: EventType;
  created_at: Date;
  /** The object as the statement that made the change wrote it (event-sql.ts); json keeps its key order. */
  data: Record<string, unknown>;
}

/** An event's columns as read from `events` (a payout's event rebuilds its object from the payout: event-sql.ts). */
export const EVENT_COLUMNS = `id, type, created_at, ${eventDataSql('events')} AS data`;

/** The event as get_event answers and as a webhook delivers it, byte for byte. */
export const eventObject = (r: EventRow) => ({
  object: 'event' as const,
  id: r.id,
  type: r.type,
  created_at: iso(r.created_at),
  data: { object: r.data },
  livemode: false,
});
