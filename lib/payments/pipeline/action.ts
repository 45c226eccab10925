import { ACTIONS, type ActionName, type ActionRequest } from '../../contract';
import type { Queryable } from '../../db/types';
import type { InlineAnswer } from './idempotency';
import type { CallerKey } from './authenticate';
import type { Merchant } from '../keys/merchants';
import type { SecretBox } from '../webhooks/secret-box';
import type { GroupWriter } from './group-commit';

export interface CoreSettings {
  idempotencyTtlSeconds: number;
  idempotencyWaitSeconds: number;
  settlementDelaySeconds: number;
  /** An unapproved payout expires after this long (PAYOUT_APPROVAL_EXPIRY_SECONDS; 7 days by default). */
  payoutApprovalExpirySeconds?: number;
  /** Live sandboxes a merchant may have at once (SANDBOX_LIMIT; 200 by default). */
  sandboxLimit?: number;
  /** Public origin for links the API hands out (checkout URLs); the request's own origin when unset. */
  publicBaseUrl?: string;
  /** Seals the webhook signing secrets the database keeps. */
  secretBox: SecretBox;
}

/** What an action knows before the database: who asks, with which key and settings. */
export interface PlanContext {
  merchant: Merchant;
  /** The key that made the request (its permissions were checked before the action runs). */
  key: CallerKey;
  settings: CoreSettings;
  /** Origin that links in responses point to (built on first read: a bad Host refuses only actions that hand out links). */
  readonly origin: string;
  /** A stored answer as a replay gives it back, whatever action stored it (get_idempotent_request). */
  storedAnswer(db: Queryable, action: string, status: number | null, body: string): Promise<string>;
}

/** The context of an action written as one function (`implement`): the plan's context and the transaction. */
export interface ActionContext extends PlanContext {
  /** The request's transaction (state-changing actions) or the database (reads). */
  db: Queryable;
  /** Under an idempotency key: lets the action store its answer in its own last statement. */
  inline?: InlineAnswer;
}

/** Marks an answer the action already stored through `inline` (JSON.stringify skips symbols). */
export const STORED_INLINE = Symbol('stored inline');
export const storedInline = <T extends object>(answer: T): T => Object.assign(answer, { [STORED_INLINE]: true });

/**
 * The core's implementation of one action of the contract (lib/contract/actions.ts), in one shape for
 * all: a plan is prepared without the database, then written in the request's transaction. The
 * pipeline (payment-api.ts), the idempotency store and group commit use only this shape.
 */
export interface Action<N extends ActionName = ActionName, Plan = unknown> {
  name: N;
  /** Request and response schemas, and whether the action changes state (then: one transaction, idempotency key). */
  contract: (typeof ACTIONS)[N];
  /** Writes in one statement that writes nothing when the action refuses: no savepoint needed around it. */
  atomic?: boolean;
  /**
   * The answer carries a secret shown once (`secret`, or the field named here): the idempotency store
   * keeps the answer with that field null, so a replay shows the object without it.
   */
  oneTimeSecret?: boolean | 'secret_key';
  /** Step 1, before the database and before the idempotency key is claimed: a refusal thrown here writes and stores nothing. */
  prepare(ctx: PlanContext, input: ActionRequest<N>): Plan;
  /** Step 2, in the request's transaction (the database itself for a read): writes the plan and returns the answer. */
  write(db: Queryable, plan: Plan, inline?: InlineAnswer): Promise<object>;
  /** Concurrent requests of this action may be written together, one transaction per group (group-commit.ts). */
  group?: GroupWriter<Plan>;
  /** The answer is stored compacted under an idempotency key: a replay puts it back (a batch's payout ids). */
  expandStored?(db: Queryable, merchantId: string, body: string): Promise<string>;
}

/** An action with its types erased: the contract schema has validated the input it gets. */
export type AnyAction = Action<ActionName, unknown> & { prepare(ctx: PlanContext, input: unknown): unknown };

/** An action that needs no step before the database: its plan is the request itself, written by `run`. */
export const implement = <N extends ActionName>(
  name: N,
  run: (ctx: ActionContext, input: ActionRequest<N>) => Promise<object>,
  opts: { atomic?: boolean; oneTimeSecret?: Action['oneTimeSecret']; expandStored?: Action<N>['expandStored'] } = {},
): Action<N, { ctx: PlanContext; input: ActionRequest<N> }> => ({
  name,
  contract: ACTIONS[name],
  prepare: (ctx, input) => ({ ctx, input }),
  // The plan's context keeps its lazy origin (a getter): it is read only by the actions that hand out links.
  write: (db, { ctx, input }, inline) =>
    run(
      {
        db,
        inline,
        merchant: ctx.merchant,
        key: ctx.key,
        settings: ctx.settings,
        storedAnswer: ctx.storedAnswer,
        get origin() {
          return ctx.origin;
        },
      },
      input,
    ),
  ...opts,
});

/** An action with a plan of its own (withdraw: decided before the database, so that it can be written in a group). */
export const define = <N extends ActionName, Plan>(name: N, parts: Omit<Action<N, Plan>, 'name' | 'contract'>): Action<N, Plan> => ({
  name,
  contract: ACTIONS[name],
  ...parts,
});
