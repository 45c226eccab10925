import type { Db, Queryable } from '../../db/types';
import type { Logger } from '../../log';
import { actions } from '../actions';
import type { CoreSettings } from './action';
import { assertPermitted } from './permissions';
import { createAuthenticator, recordKeyUse } from './authenticate';
import { ApiError, internalError, readJsonObject, REPLAYED_HEADER, REQUEST_ID_HEADER } from '../../contract';
import { isDatabaseUnavailable } from '../../db/types';
import { STORED_INLINE } from './action';
import { fingerprint, parseIdempotencyKey, runIdempotent, type InlineAnswer, type StoredResult } from './idempotency';
import { createWithdrawGroups } from '../payouts/withdraw-group';
import { writeWithdrawal } from '../payouts/withdrawal';
import type { ApiResponse, PaymentCore } from './api-request';
import { parseCommand } from './parse-command';
import { errorCodeOf, objectIdOf, type RequestLog } from '../keys/request-log';
import { nextRequestId } from './request-id';

/** What the core tells its host about each request it answered (metrics); never a key or a body. */
export interface RequestOutcome {
  action: string;
  status: number;
  /** The error code, for answers that are errors. */
  code?: string;
  replayed: boolean;
  ms: number;
}

export interface PaymentApiDeps {
  db: Db;
  settings: CoreSettings & { authFailuresPerMinute: number; withdrawGroupCommit?: boolean };
  log: Logger;
  onRequest?: (outcome: RequestOutcome) => void;
  /** Where authenticated calls are logged for list_requests (request-log.ts); none: not logged. */
  requestLog?: RequestLog;
  /** The size of each group of withdrawals committed together (metrics). */
  onGroup?: (size: number) => void;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/**
 * The payment API as a function from a request to its answer (api-request.ts).
 * Framework agnostic: Next (pages/api/v1/index.php.ts) and `npm run start:api`
 * serve it on node's request through lib/server/node-http.ts; the console calls
 * it in process.
 *
 * Order matters: method, then authentication (a 401 touches nothing else), then
 * body and command validation (not stored), then the key's permission (a 403
 * runs nothing), then the action; state-changing actions with a key run through
 * the idempotency store.
 */
export function createPaymentCore(deps: PaymentApiDeps): PaymentCore {
  const { db } = deps;
  const authenticate = createAuthenticator(db, deps.settings.authFailuresPerMinute);
  // Concurrent withdrawals are committed together (withdraw-group.ts) unless WITHDRAW_GROUP_COMMIT=false.
  const withdrawGroups = deps.settings.withdrawGroupCommit === false ? undefined : createWithdrawGroups(db, { waitSeconds: deps.settings.idempotencyWaitSeconds, onGroup: deps.onGroup });

  return async function handle(req, meta = {}) {
    const started = performance.now();
    // Every answer and every log line of this request carry its id, so a support ticket finds the log.
    const requestId = nextRequestId();
    let action = '-';
    let response: ApiResponse;
    let code: string | undefined;
    // Set once the key is known: only authenticated calls are logged.
    let who: { merchantId: string; keyId: string } | undefined;
    let idempotencyKey: string | undefined;
    try {
      if (req.method !== 'POST') {
        throw new ApiError('method_not_allowed', 'Only POST is supported on this endpoint.', undefined, { Allow: 'POST' });
      }
      const { merchant, key: callerKey } = await authenticate(req.headers.get('authorization'), meta.clientAddress ?? 'unknown');
      who = { merchantId: merchant.id, keyId: callerKey.id };
      recordKeyUse(db, callerKey, (err) => deps.log.warn({ err, requestId }, 'last use of a key not recorded'));
      const body = await readJsonObject(req);
      const command = parseCommand(body);
      action = command.name;
      assertPermitted(callerKey, command);
      // Links start with it: built only by the actions that hand out a link (checkout sessions).
      let origin: string | undefined;
      const linkOrigin = () => (origin ??= deps.settings.publicBaseUrl ?? requestOrigin(req.url));
      // withdraw is decided before the database (its payout-limit refusal included), then written alone or in a group.
      const withdrawal = command.prepare?.({ merchant, key: callerKey, settings: deps.settings });
      const run = (tx: Queryable, inline?: InlineAnswer): Promise<object> =>
        withdrawal ? writeWithdrawal(tx, withdrawal, inline) : command.run({ db: tx, merchant, key: callerKey, settings: deps.settings, get origin() { return linkOrigin(); }, inline });
      const key = command.mutates ? parseIdempotencyKey(req.headers) : undefined;
      idempotencyKey = key;

      if (!command.mutates) {
        response = json(200, JSON.stringify(await run(db)));
      } else {
        const call = key === undefined ? undefined : {
          merchantId: merchant.id,
          key,
          action: command.name,
          fingerprint: fingerprint(body),
          ttlSeconds: deps.settings.idempotencyTtlSeconds,
          waitSeconds: deps.settings.idempotencyWaitSeconds,
        };
        /** The request in a transaction of its own: without a key, or claiming the key and storing its answer. */
        const alone = async (): Promise<StoredResult> => {
          if (!call) return { status: 200, body: JSON.stringify(await db.transaction((tx) => run(tx))), replayed: false };
          return runIdempotent(
            db,
            call,
            async (tx, inline) => {
              const answer = await run(tx, inline);
              const body = JSON.stringify(answer);
              // A secret shown once is never kept in the idempotency store.
              const storedBody = command.oneTimeSecret ? JSON.stringify({ ...answer, secret: null }) : undefined;
              return { status: 200, body, storedBody, stored: STORED_INLINE in answer };
            },
            { requestId, atomic: command.atomic },
          );
        };
        const stored = withdrawal && withdrawGroups ? await withdrawGroups.submit({ prepared: withdrawal, call, requestId, alone }) : await alone();
        response = json(stored.status, stored.body, stored.replayed ? { [REPLAYED_HEADER]: 'true' } : {});
      }
    } catch (error) {
      const apiError = toApiError(error, deps.log, action, requestId);
      code = apiError.code;
      response = json(apiError.status, JSON.stringify(withRequestId(apiError, requestId)), apiError.headers);
    }
    response.headers[REQUEST_ID_HEADER] = requestId;
    const ms = performance.now() - started;
    deps.log.debug({ requestId, action, status: response.status, ms: Math.round(ms) }, 'request');
    const replayed = response.headers[REPLAYED_HEADER] === 'true';
    deps.onRequest?.({ action, status: response.status, code, replayed, ms });
    if (who && deps.requestLog) {
      deps.requestLog.record({
        id: requestId, merchantId: who.merchantId, keyId: who.keyId, at: new Date(), action, status: response.status, ms,
        // A refusal inside the idempotent transaction comes back as a stored answer, not a throw.
        errorCode: code ?? (response.status >= 400 ? errorCodeOf(response.body) : null),
        idempotencyKey: idempotencyKey ?? null, replayed, objectId: response.status === 200 ? objectIdOf(response.body) : null,
        clientAddress: meta.clientAddress ?? null,
      });
    }
    return response;
  };
}

/** Where links in answers point without PUBLIC_BASE_URL: the request's own origin, from its Host header. */
function requestOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    throw new ApiError('invalid_request', 'The Host header is not a valid host.', 'host');
  }
}

/** The error body with the request's id, so a merchant can quote it to support. */
export const withRequestId = (error: ApiError, requestId: string) => {
  const body = error.toBody();
  body.error.request_id = requestId;
  return body;
};

function json(status: number, body: string, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body };
}

/**
 * The one place a failure becomes an error of the table: a database that cannot
 * be reached is a 503 the client may retry (with the same idempotency key);
 * anything else unexpected is logged and answered generically.
 */
function toApiError(error: unknown, log: Logger, action: string, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    log.warn({ requestId, action, reason: (error as { code?: string })?.code ?? 'connection' }, 'database unavailable');
    return new ApiError('service_unavailable', 'The service cannot reach its database right now. Retry after a moment with the same idempotency key.', undefined, {
      'Retry-After': '1',
    });
  }
  log.error({ err: error, requestId, action }, 'unhandled error in payment API');
  return internalError();
}
