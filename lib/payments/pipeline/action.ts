import { ACTIONS, type ActionName, type ActionRequest } from '../../contract';
import type { Queryable } from '../../db/types';
import type { InlineAnswer } from './idempotency';
import type { CallerKey } from './authenticate';
import type { Merchant } from '../keys/merchants';
import type { SecretBox } from '../webhooks/secret-box';
import type { PreparedWithdrawal } from '../payouts/withdraw-statement';

export interface CoreSettings {
  idempotencyTtlSeconds: number;
  idempotencyWaitSeconds: number;
  settlementDelaySeconds: number;
  /** An unapproved payout expires after this long (PAYOUT_APPROVAL_EXPIRY_SECONDS; 7 days by default). */
  payoutApprovalExpirySeconds?: number;
  /** Public origin for links the API hands out (checkout URLs); the request's own origin when unset. */
  publicBaseUrl?: string;
  /** Seals the webhook signing secrets the database keeps. */
  secretBox: SecretBox;
}

export interface ActionContext {
  /** The request's transaction (state-changing actions) or the database (reads). */
  db: Queryable;
  merchant: Merchant;
  /** The key that made the request (its permissions were checked before the action runs). */
  key: CallerKey;
  settings: CoreSettings;
  /** Origin that links in responses point to. */
  origin: string;
  /** Under an idempotency key: lets the action store its answer in its own last statement. */
  inline?: InlineAnswer;
}

/** Marks an answer the action already stored through `ctx.inline` (JSON.stringify skips symbols). */
export const STORED_INLINE = Symbol('stored inline');
export const storedInline = <T extends object>(answer: T): T => Object.assign(answer, { [STORED_INLINE]: true });

/** The core's implementation of one action of the contract (lib/contract/actions.ts). */
export interface Action<N extends ActionName = ActionName> {
  name: N;
  /** Request and response schemas, and whether the action changes state (then: one transaction, idempotency key). */
  contract: (typeof ACTIONS)[N];
  /** Writes in one statement that writes nothing when the action refuses: no savepoint needed around it. */
  atomic?: boolean;
  /**
   * The answer carries a secret shown once (`secret`): the idempotency store keeps
   * the answer with `secret: null`, so a replay shows the object without it.
   */
  oneTimeSecret?: boolean;
  run(ctx: ActionContext, input: ActionRequest<N>): Promise<object>;
  /**
   * A withdrawal decided without the database (its refusals thrown here), so that
   * the core can commit it together with concurrent ones (withdraw-group.ts).
   */
  prepare?(ctx: Pick<ActionContext, 'merchant' | 'key' | 'settings'>, input: ActionRequest<N>): PreparedWithdrawal;
}

export const implement = <N extends ActionName>(
  name: N,
  run: Action<N>['run'],
  opts: { atomic?: boolean; oneTimeSecret?: boolean; prepare?: Action<N>['prepare'] } = {},
): Action<N> => ({
  name,
  contract: ACTIONS[name],
  run,
  ...opts,
});
