import { ApiError, MAX_WEBHOOK_ENDPOINTS, type CreatedBy } from '../../contract';
import { createdBy } from '../pipeline/caller';
import { newId } from '../pipeline/random-id';
import { newWebhookSecret } from './signing';
import { type ActionContext, readAction, writeAction } from '../pipeline/action';
import { listPage } from '../pipeline/list-page';

interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  disabled: boolean;
  disabled_reason: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  created_by: CreatedBy;
}

/** Never the secret, sealed or not: it is shown once, by the action that makes it. */
const ENDPOINT_COLUMNS = `id, url, description, enabled_events, disabled, disabled_reason,
  CASE WHEN previous_secret_expires_at > app_now() THEN previous_secret_expires_at END AS previous_secret_expires_at, created_at, created_by`;

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

const endpointObject = (r: EndpointRow) => ({
  object: 'webhook_endpoint' as const,
  id: r.id,
  url: r.url,
  description: r.description,
  enabled_events: r.enabled_events,
  disabled: r.disabled,
  disabled_reason: r.disabled_reason,
  previous_secret_expires_at: iso(r.previous_secret_expires_at),
  created_at: iso(r.created_at)!,
  created_by: r.created_by ?? null,
  livemode: false,
});

const notFound = (id: string) => new ApiError('not_found', `No such webhook endpoint: ${id}`, 'id');

/**
 * The merchant's count of endpoints is raised by a conditional update in the
 * same statement as the insert, so concurrent creations cannot pass the limit.
 */
export const createWebhookEndpoint = writeAction(
  'create_webhook_endpoint',
  async ({ db, merchant, key, settings }, input) => {
    const secret = newWebhookSecret();
    const [row] = await db.query<EndpointRow>(
      `WITH slot AS (
         UPDATE merchants SET webhook_endpoint_count = webhook_endpoint_count + 1
         WHERE id = $1 AND webhook_endpoint_count < $7 RETURNING id)
       INSERT INTO webhook_endpoints (id, merchant_id, url, description, enabled_events, secret_sealed, created_by)
       SELECT $2, $1, $3, $4, $5, $6, $8::json FROM slot RETURNING ${ENDPOINT_COLUMNS}`,
      [
        merchant.id,
        newId('we'),
        input.url,
        input.description ?? null,
        input.enabled_events ?? ['*'],
        settings.secretBox.seal(secret),
        MAX_WEBHOOK_ENDPOINTS,
        JSON.stringify(createdBy(key)),
      ],
    );
    if (!row)
      throw new ApiError(
        'webhook_endpoint_limit',
        `A merchant has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first.`,
        'url',
      );
    return { ...endpointObject(row), secret };
  },
  { atomic: true, oneTimeSecret: true },
);

export const listWebhookEndpoints = readAction('list_webhook_endpoints', async ({ db, merchant }, input) => {
  const page = await listPage<EndpointRow>(db, {
    table: 'webhook_endpoints',
    columns: ENDPOINT_COLUMNS,
    merchantId: merchant.id,
    limit: input.limit,
    startingAfter: input.starting_after,
  });
  return { ...page, data: page.data.map(endpointObject) };
});

async function findEndpoint({ db, merchant }: ActionContext, id: string) {
  const [row] = await db.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND merchant_id = $2`, [
    id,
    merchant.id,
  ]);
  if (!row) throw notFound(id);
  return row;
}

export const getWebhookEndpoint = readAction('get_webhook_endpoint', async (ctx, input) =>
  endpointObject(await findEndpoint(ctx, input.id)),
);

/** Disabling ends the endpoint's pending deliveries (they are not sent later); enabling clears the reason. */
export const updateWebhookEndpoint = writeAction(
  'update_webhook_endpoint',
  async ({ db, merchant }, input) => {
    const [row] = await db.query<EndpointRow>(
      `WITH w AS (
         UPDATE webhook_endpoints SET url = coalesce($3, url), enabled_events = coalesce($4, enabled_events),
           disabled = coalesce($5, disabled),
           disabled_reason = CASE WHEN $5::boolean IS NULL THEN disabled_reason WHEN $5 THEN 'Disabled by the merchant.' END
         WHERE id = $1 AND merchant_id = $2 RETURNING *),
       ended AS (
         UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = 'endpoint disabled'
         WHERE endpoint_id = (SELECT id FROM w WHERE disabled) AND status = 'pending')
       SELECT ${ENDPOINT_COLUMNS} FROM w`,
      [input.id, merchant.id, input.url ?? null, input.enabled_events ?? null, input.disabled ?? null],
    );
    if (!row) throw notFound(input.id);
    return endpointObject(row);
  },
  { atomic: true },
);

export const deleteWebhookEndpoint = writeAction(
  'delete_webhook_endpoint',
  async ({ db, merchant }, input) => {
    const [row] = await db.query<{ id: string }>(
      `WITH gone AS (DELETE FROM webhook_endpoints WHERE id = $1 AND merchant_id = $2 RETURNING id),
       slot AS (UPDATE merchants SET webhook_endpoint_count = webhook_endpoint_count - 1 WHERE id = $2 AND EXISTS (SELECT 1 FROM gone))
       SELECT id FROM gone`,
      [input.id, merchant.id],
    );
    if (!row) throw notFound(input.id);
    return { object: 'webhook_endpoint' as const, id: row.id, deleted: true as const };
  },
  { atomic: true },
);

/** The old secret keeps signing, alongside the new one, for 24 hours; a second rotation drops the oldest. */
export const rotateWebhookSecret = writeAction(
  'rotate_webhook_secret',
  async ({ db, merchant, settings }, input) => {
    const secret = newWebhookSecret();
    const [row] = await db.query<EndpointRow>(
      `UPDATE webhook_endpoints SET previous_secret_sealed = secret_sealed, previous_secret_expires_at = app_now() + interval '24 hours',
         secret_sealed = $3
       WHERE id = $1 AND merchant_id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
      [input.id, merchant.id, settings.secretBox.seal(secret)],
    );
    if (!row) throw notFound(input.id);
    return { ...endpointObject(row), secret };
  },
  { atomic: true, oneTimeSecret: true },
);
