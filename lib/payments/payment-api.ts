import type { Db, Queryable } from '../db/types';
import type { Logger } from '../log';
import { actions } from './actions';
import type { CoreSettings } from './actions/action';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { authenticate } from './authenticate';
import { ApiError, internalError, readJsonObject, REPLAYED_HEADER } from '../contract';
import { fingerprint, parseIdempotencyKey, runIdempotent } from './idempotency';
import type { ApiResponse, PaymentCore } from './api-request';
import { parseCommand } from './parse-command';

export interface PaymentApiDeps {
  db: Db;
  settings: CoreSettings & { authFailuresPerMinute: number };
  log: Logger;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/**
 * The payment API as a function from a request to its answer (api-request.ts).
 * Framework agnostic: Next (pages/api/v1/index.php.ts) and `npm run start:api`
 * serve it on node's request through lib/server/node-http.ts; the console calls
 * it in process.
 *
 * Order matters: method, then authentication (a 401 touches nothing else), then
 * body and command validation (not stored), then the action; state-changing
 * actions with a key run through the idempotency store.
 */
export function createPaymentCore(deps: PaymentApiDeps): PaymentCore {
  const limiter = new AuthFailureLimiter(deps.settings.authFailuresPerMinute);
  const { db } = deps;

  return async function handle(req, meta = {}) {
    const started = performance.now();
    let action = '-';
    let response: ApiResponse;
    try {
      if (req.method !== 'POST') {
        throw new ApiError('method_not_allowed', 'Only POST is supported on this endpoint.', undefined, { Allow: 'POST' });
      }
      const merchant = await authenticate(db, req.headers.get('authorization'), meta.clientAddress ?? 'unknown', limiter);
      const body = await readJsonObject(req);
      const command = parseCommand(body);
      action = command.name;
      const origin = deps.settings.publicBaseUrl ?? new URL(req.url).origin;
      const run = async (tx: Queryable) =>
        JSON.stringify(await command.run({ db: tx, merchant, settings: deps.settings, origin }));
      const key = command.mutates ? parseIdempotencyKey(req.headers) : undefined;

      if (!command.mutates) {
        response = json(200, await run(db));
      } else if (key === undefined) {
        response = json(200, await db.transaction(run));
      } else {
        const call = {
          merchantId: merchant.id,
          key,
          action: command.name,
          fingerprint: fingerprint(body),
          ttlSeconds: deps.settings.idempotencyTtlSeconds,
          waitSeconds: deps.settings.idempotencyWaitSeconds,
        };
        const stored = await runIdempotent(db, call, async (tx) => ({ status: 200, body: await run(tx) }));
        response = json(stored.status, stored.body, stored.replayed ? { [REPLAYED_HEADER]: 'true' } : {});
      }
    } catch (error) {
      response = errorResponse(error, deps.log, action);
    }
    deps.log.debug({ action, status: response.status, ms: Math.round(performance.now() - started) }, 'request');
    return response;
  };
}

function json(status: number, body: string, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body };
}

/** The one place errors become responses; anything unexpected is logged and answered generically. */
function errorResponse(error: unknown, log: Logger, action = '-'): ApiResponse {
  if (!(error instanceof ApiError)) {
    log.error({ err: error, action }, 'unhandled error in payment API');
    error = internalError();
  }
  const apiError = error as ApiError;
  return json(apiError.status, JSON.stringify(apiError.toBody()), apiError.headers);
}
