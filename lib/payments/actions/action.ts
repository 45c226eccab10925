import { ACTIONS, type ActionName, type ActionRequest } from '../../contract';
import type { Queryable } from '../../db/types';
import type { Merchant } from '../merchants';

export interface CoreSettings {
  idempotencyTtlSeconds: number;
  idempotencyWaitSeconds: number;
  settlementDelaySeconds: number;
  /** Public origin for links the API hands out (checkout URLs); the request's own origin when unset. */
  publicBaseUrl?: string;
}

export interface ActionContext {
  /** The request's transaction (state-changing actions) or the database (reads). */
  db: Queryable;
  merchant: Merchant;
  settings: CoreSettings;
  /** Origin that links in responses point to. */
  origin: string;
}

/** The core's implementation of one action of the contract (lib/contract/actions.ts). */
export interface Action<N extends ActionName = ActionName> {
  name: N;
  /** Request and response schemas, and whether the action changes state (then: one transaction, idempotency key). */
  contract: (typeof ACTIONS)[N];
  run(ctx: ActionContext, input: ActionRequest<N>): Promise<object>;
}

export const implement = <N extends ActionName>(name: N, run: Action<N>['run']): Action<N> => ({
  name,
  contract: ACTIONS[name],
  run,
});
