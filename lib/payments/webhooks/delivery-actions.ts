import { ApiError, type EventType, type WebhookDeliveryStatus } from '../../contract';
import { readAction, writeAction } from '../pipeline/action';
import { listPage } from '../pipeline/list-page';

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: EventType;
  endpoint_id: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  last_response_body: string | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
}

const DELIVERY_COLUMNS = `id, event_id, (SELECT type FROM events WHERE events.id = event_id) AS event_type, endpoint_id, status, attempts,
  last_attempt_at, last_response_status, last_response_body, last_error, next_attempt_at, created_at`;

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

const deliveryObject = (r: DeliveryRow) => ({
  object: 'webhook_delivery' as const,
  id: r.id,
  event_id: r.event_id,
  event_type: r.event_type,
  endpoint_id: r.endpoint_id,
  status: r.status,
  attempts: r.attempts,
  last_attempt_at: iso(r.last_attempt_at),
  last_response_status: r.last_response_status,
  last_response_body: r.last_response_body,
  last_error: r.last_error,
  next_attempt_at: iso(r.next_attempt_at),
  created_at: iso(r.created_at)!,
});

export const listWebhookDeliveries = readAction('list_webhook_deliveries', async ({ db, merchant }, input) => {
  const page = await listPage<DeliveryRow>(db, {
    table: 'webhook_deliveries',
    columns: DELIVERY_COLUMNS,
    merchantId: merchant.id,
    limit: input.limit,
    startingAfter: input.starting_after,
    where: { endpoint_id: input.endpoint_id, status: input.status },
    // An event's deliveries are a handful (one per endpoint, and resends): its index alone. An endpoint's,
    // newest first, are its (endpoint_id, seq) index: walked, not gathered and sorted.
    few: { column: 'event_id', value: input.event_id },
    walk: { column: 'endpoint_id', value: input.endpoint_id },
  });
  return { ...page, data: page.data.map(deliveryObject) };
});

/** One more delivery of an event to an endpoint of the merchant, due now. */
export const resendEvent = writeAction(
  'resend_event',
  async ({ db, merchant }, input) => {
    const [row] = await db.query<DeliveryRow>(
      `INSERT INTO webhook_deliveries (id, merchant_id, event_id, endpoint_id)
       SELECT new_id('whd'), $1, e.id, w.id FROM events e, webhook_endpoints w
       WHERE e.id = $2 AND e.merchant_id = $1 AND w.id = $3 AND w.merchant_id = $1 AND NOT w.disabled
       RETURNING ${DELIVERY_COLUMNS}`,
      [merchant.id, input.id, input.endpoint_id],
    );
    if (row) return deliveryObject(row);
    const [found] = await db.query<{ event: boolean; endpoint: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM events WHERE id = $2 AND merchant_id = $1) AS event,
              EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = $3 AND merchant_id = $1) AS endpoint`,
      [merchant.id, input.id, input.endpoint_id],
    );
    if (!found!.event) throw new ApiError('not_found', `No such event: ${input.id}`, 'id');
    if (!found!.endpoint) throw new ApiError('not_found', `No such webhook endpoint: ${input.endpoint_id}`, 'endpoint_id');
    throw new ApiError('invalid_request', `Webhook endpoint ${input.endpoint_id} is disabled; enable it first.`, 'endpoint_id');
  },
  { atomic: true },
);
