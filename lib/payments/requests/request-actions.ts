import { ApiError } from '../../contract';
import { readAction } from '../pipeline/action';
import { listPage } from '../pipeline/list-page';

interface LogRow {
  id: string;
  created_at: Date;
  action: string;
  status: number;
  error_code: string | null;
  duration_ms: number;
  key_id: string;
  idempotency_key: string | null;
  replayed: boolean;
  object_id: string | null;
  client_address: string | null;
  origin: 'api' | 'console';
}

const LOG_COLUMNS =
  'id, created_at, action, status, error_code, duration_ms, key_id, idempotency_key, replayed, object_id, client_address, origin';

export const listRequests = readAction('list_requests', async ({ db, merchant }, input) => {
  const page = await listPage<LogRow>(db, {
    table: 'request_log',
    columns: LOG_COLUMNS,
    merchantId: merchant.id,
    limit: input.limit,
    startingAfter: input.starting_after,
    where: {
      action: input.request_action,
      status: input.status,
      idempotency_key: input.idempotency_key,
      key_id: input.key_id,
      object_id: input.object_id,
      origin: input.origin,
    },
  });
  // The key's name as it is now (kept after a revocation); one look-up for the page, not a join on the log.
  const keyIds = [...new Set(page.data.map((r) => r.key_id))];
  const names = new Map(
    keyIds.length === 0
      ? []
      : (
          await db.query<{ id: string; name: string | null }>('SELECT id, name FROM api_keys WHERE merchant_id = $1 AND id = ANY($2)', [
            merchant.id,
            keyIds,
          ])
        ).map((k) => [k.id, k.name]),
  );
  return {
    ...page,
    data: page.data.map((r) => ({
      object: 'request' as const,
      ...r,
      key_name: names.get(r.key_id) ?? null,
      created_at: new Date(r.created_at).toISOString(),
    })),
  };
});

export const getIdempotentRequest = readAction('get_idempotent_request', async ({ db, merchant, settings, storedAnswer }, input) => {
  const [row] = await db.query<{
    action: string;
    response_status: number;
    response_body: string;
    created_at: Date;
    replay_count: number;
    expires_at: Date;
  }>(
    `SELECT action, response_status, response_body, created_at, replay_count, created_at + make_interval(secs => $3) AS expires_at
     FROM idempotency_keys
     WHERE merchant_id = $1 AND key = $2 AND response_status IS NOT NULL AND created_at > app_now() - make_interval(secs => $3)`,
    [merchant.id, input.idempotency_key, settings.idempotencyTtlSeconds],
  );
  if (!row)
    throw new ApiError('not_found', 'No request with this idempotency key is stored (never used, or past retention).', 'idempotency_key');
  return {
    object: 'idempotent_request' as const,
    idempotency_key: input.idempotency_key,
    action: row.action,
    status: row.response_status,
    response: JSON.parse(await storedAnswer(db, row.action, row.response_status, row.response_body)) as unknown,
    first_seen_at: new Date(row.created_at).toISOString(),
    replay_count: row.replay_count,
    expires_at: new Date(row.expires_at).toISOString(),
  };
});
