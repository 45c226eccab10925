import type { Db, Queryable } from '../../db/types';
import type { Logger } from '../../log';
import { inTransaction, type ActionContext, type ActionTable, type StoredResult } from './action';
import type { CoreSettings } from './core-settings';
import { assertPermitted } from './permissions';
import { createAuthenticator } from './authenticate';
import {
  ApiError,
  internalError,
  readJsonObject,
  REPLAYED_HEADER,
  REQUEST_ID_HEADER,
  REQUEST_ORIGIN_HEADER,
  type ActionName,
} from '../../contract';
import { isDatabaseUnavailable } from '../../db/types';
import { objectIdOf } from './api-object';
import { idempotentCall } from './idempotency-key';
import { createGroupCommit, type GroupCommit } from './group-commit';
import { writeAlone } from './write-plan';
import type { ApiRequest, ApiResponse, CountingCore, RequestMeta } from './api-request';
import { parseCommand } from './parse-command';
import type { RequestLog } from './request-log';
import { nextRequestId } from './request-id';
import { setClock } from './clock';

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
 * The payment API over an action table (lib/payments/core.ts assembles it), as a function from a
 * request to its answer (api-request.ts). Framework agnostic: the app server of `npm start` and
 * `npm run start:api` (lib/server/app-server.ts, ahead of Next's router) serves it on node's request
 * through lib/server/node-http.ts; the console calls it in process. It counts the requests it is
 * answering (`inFlight`: webhook delivery yields to them).
 *
 * Order matters: method, then authentication (a 401 touches nothing else), then
 * body and command validation (not stored), then the key's permission (a 403
 * runs nothing), then the action: a read on the database; a write planned, then
 * written in a transaction of its own (through the idempotency store under a key)
 * or with others in a group.
 */
export function createPaymentApi(actions: ActionTable, deps: PaymentApiDeps): CountingCore {
  const { db } = deps;
  const authenticate = createAuthenticator(db, deps.settings.authFailuresPerMinute, deps.log);
  // Concurrent requests of an action that can be written in a group are committed together
  // (group-commit.ts; withdraw today) unless WITHDRAW_GROUP_COMMIT=false.
  const groups = new Map<string, GroupCommit<unknown>>();
  if (deps.settings.withdrawGroupCommit !== false) {
    for (const action of Object.values(actions)) {
      if ('write' in action && action.group)
        groups.set(
          action.name,
          createGroupCommit(db, action, { waitSeconds: deps.settings.idempotencyWaitSeconds, onGroup: deps.onGroup }),
        );
    }
  }
  /** A stored answer as its replay gives it back: the action that stored it puts back what it compacted. */
  const storedAnswer = async (tx: Queryable, merchantId: string, name: string, status: number | null, body: string) => {
    const action = status === 200 && Object.hasOwn(actions, name) ? actions[name as ActionName] : undefined;
    return action && 'write' in action && action.expandStored ? action.expandStored(tx, merchantId, body) : body;
  };
  let inFlight = 0;

  async function handle(req: ApiRequest, meta: RequestMeta = {}): Promise<ApiResponse> {
    inFlight++;
    try {
      const started = performance.now();
      // Every answer and every log line of this request carry its id, so a support ticket finds the log.
      const requestId = nextRequestId();
      let action = '-';
      let response: ApiResponse;
      let code: string | undefined;
      // Set once the key is known: only authenticated calls are logged.
      let who: { merchantId: string; keyId: string; clock: Date | null } | undefined;
      let idempotencyKey: string | undefined;
      // From the action's result (never read back out of the answer's text): for the request log.
      let objectId: string | null = null;
      let storedCode: string | null = null;
      // Set for an action that changes nothing: only such a call may be classed as the console's own read.
      let readOnly = false;
      try {
        if (req.method !== 'POST') {
          throw new ApiError('method_not_allowed', 'Only POST is supported on this endpoint.', undefined, { Allow: 'POST' });
        }
        const { merchant, key: callerKey } = await authenticate(
          req.headers.get('authorization'),
          meta.clientAddress ?? 'unknown',
          requestId,
        );
        who = { merchantId: merchant.id, keyId: callerKey.id, clock: merchant.sandbox?.clockNow ?? null };
        const body = await readJsonObject(req);
        const command = parseCommand(actions, body);
        action = command.name;
        assertPermitted(callerKey, command);
        readOnly = 'read' in command.action;
        // Links start with it: built only by the actions that hand out a link (checkout sessions).
        let origin: string | undefined;
        const ctx: ActionContext = {
          db,
          merchant,
          key: callerKey,
          settings: deps.settings,
          get origin() {
            return (origin ??= deps.settings.publicBaseUrl ?? requestOrigin(req.url));
          },
          storedAnswer: (tx, name, status, stored) => storedAnswer(tx, merchant.id, name, status, stored),
        };
        const impl = command.action;
        // A sandbox with a test clock: each of its transactions is stamped with the clock's time, and is written alone.
        const clock = merchant.sandbox?.clockNow ?? undefined;
        if ('read' in impl) {
          const answer = clock
            ? await db.transaction(async (tx) => {
                await setClock(tx, clock);
                return impl.read(inTransaction(ctx, tx), command.input);
              })
            : await impl.read(ctx, command.input);
          response = json(200, JSON.stringify(answer));
          objectId = objectIdOf(answer);
        } else {
          // A write's plan is decided before the database (a refusal there writes and stores nothing), then
          // written in a transaction: alone, or in a group when the action can be.
          const plan = impl.plan ? impl.plan(ctx, command.input) : command.input;
          const call = idempotentCall(req.headers, body, merchant.id, command.name, deps.settings);
          idempotencyKey = call?.key;
          const group = clock ? undefined : groups.get(impl.name);
          const stored: StoredResult = group
            ? await group.submit({ ctx, plan, call, requestId })
            : await writeAlone(db, impl, ctx, plan, call, requestId, clock);
          response = json(stored.status, stored.body, stored.replayed ? { [REPLAYED_HEADER]: 'true' } : {});
          objectId = stored.objectId;
          storedCode = stored.errorCode;
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
          id: requestId,
          merchantId: who.merchantId,
          keyId: who.keyId,
          // A sandbox with a test clock logs its requests at its clock's time, as it stamps everything else.
          at: who.clock ?? new Date(),
          action,
          status: response.status,
          ms,
          // A refusal inside the idempotent transaction comes back as a stored result with its code, not a throw.
          errorCode: code ?? storedCode,
          idempotencyKey: idempotencyKey ?? null,
          replayed,
          objectId: response.status === 200 ? objectId : null,
          clientAddress: meta.clientAddress ?? null,
          // The header classifies, it never hides: a write or a refusal stays `api` whatever it says.
          origin: readOnly && response.status === 200 && req.headers.get(REQUEST_ORIGIN_HEADER) === 'console' ? 'console' : 'api',
        });
      }
      return response;
    } finally {
      inFlight--;
    }
  }

  return Object.defineProperty(handle, 'inFlight', { get: () => inFlight }) as CountingCore;
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
    return new ApiError(
      'service_unavailable',
      'The service cannot reach its database right now. Retry after a moment with the same idempotency key.',
      undefined,
      {
        'Retry-After': '1',
      },
    );
  }
  log.error({ err: error, requestId, action }, 'unhandled error in payment API');
  return internalError();
}
