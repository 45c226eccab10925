import { ACTIONS, type ActionName, type ActionRequest } from '../../contract';
import type { Db, Queryable } from '../../db/types';
import type { CallerKey, Merchant } from './caller';
import type { CoreSettings } from './core-settings';
import type { IdempotentCall } from './idempotency-key';
import type { InlineAnswer } from './stored-answer';

/** What an action knows of its request before the database: who asks, with which key and settings. */
export interface RequestContext {
  merchant: Merchant;
  /** The key that made the request (its permissions were checked before the action runs). */
  key: CallerKey;
  settings: CoreSettings;
  /** Origin that links in responses point to (built on first read: a bad Host refuses only actions that hand out links). */
  readonly origin: string;
  /** A stored answer as a replay gives it back, whatever action stored it (get_idempotent_request). */
  storedAnswer(db: Queryable, action: string, status: number | null, body: string): Promise<string>;
}

/** The context an action runs in: its request's, and the database (a read) or the request's transaction (a write). */
export interface ActionContext extends RequestContext {
  db: Queryable;
  /** A write under an idempotency key: lets the action store its answer in its own last statement (stored-answer.ts). */
  inline?: InlineAnswer;
}

/** The request's context in its transaction; a getter keeps the origin lazy. */
export const inTransaction = (ctx: RequestContext, db: Queryable, inline?: InlineAnswer): ActionContext => ({
  db,
  inline,
  merchant: ctx.merchant,
  key: ctx.key,
  settings: ctx.settings,
  storedAnswer: ctx.storedAnswer,
  get origin() {
    return ctx.origin;
  },
});

/** What a write comes back with, alone, in a group or replayed: the answer, and what the request log says of it. */
export interface StoredResult {
  status: number;
  body: string;
  replayed: boolean;
  /** The id of the object the answer is about (the request log's), from the action's result; null for none or an error. */
  objectId: string | null;
  /** The error code of a refusal; null for a success. */
  errorCode: string | null;
}

/** One request waiting for its group (group-commit.ts): its context, its plan, and its idempotency key when it sent one. */
export interface GroupMember<Plan> {
  ctx: RequestContext;
  plan: Plan;
  call?: IdempotentCall;
  requestId: string;
}

/**
 * How an action writes many plans in one transaction (WriteAction.group): claims the members' keys, writes
 * every plan it takes and stores each answer, and gives each member its result (`alone` answers a member
 * by the ordinary path after the commit: a replay, a key in use). A throw sends every member alone.
 */
export interface GroupWriter<Plan> {
  commit(
    db: Db,
    members: GroupMember<Plan>[],
    opts: { waitSeconds: number; alone(member: GroupMember<Plan>): Promise<StoredResult> },
  ): Promise<PromiseSettledResult<StoredResult>[]>;
}

/** Marks an answer the action already stored through `inline` (JSON.stringify skips symbols). */
export const STORED_INLINE = Symbol('stored inline');
export const storedInline = <T extends object>(answer: T): T => Object.assign(answer, { [STORED_INLINE]: true });

/** An action that changes nothing (the contract's `mutates: false`): answered from the database, no transaction, no key. */
export interface ReadAction<N extends ActionName = ActionName> {
  name: N;
  contract: (typeof ACTIONS)[N];
  read(ctx: ActionContext, input: ActionRequest<N>): Promise<object>;
}

/**
 * An action that changes state (`mutates: true`): written in the request's transaction, under its
 * idempotency key when it sent one. Its plan is the request itself, unless it has a `plan` step:
 * decided before the database (withdraw), so that a refusal there writes and stores nothing and the
 * plan can be written alone or with others in a group.
 */
export interface WriteAction<N extends ActionName = ActionName, Plan = ActionRequest<N>> {
  name: N;
  contract: (typeof ACTIONS)[N];
  /** Before the database and before the idempotency key is claimed. */
  plan?(ctx: RequestContext, input: ActionRequest<N>): Plan;
  /** In the request's transaction: writes the plan and returns the answer. */
  write(ctx: ActionContext, plan: Plan): Promise<object>;
  /** Writes in one statement that writes nothing when the action refuses: no savepoint needed around it. */
  atomic?: boolean;
  /**
   * The answer carries a secret shown once (`secret`, or the field named here): the idempotency store
   * keeps the answer with that field null, so a replay shows the object without it.
   */
  oneTimeSecret?: boolean | 'secret_key';
  /** Concurrent requests of this action may be written together, one transaction per group (group-commit.ts). */
  group?: GroupWriter<Plan>;
  /**
   * A keyed request written alone in one statement that is its own transaction (claim, write and stored
   * answer): undefined when it wrote nothing and the ordinary path must decide (a replay, a refusal).
   */
  oneStatement?(db: Db, plan: Plan, call: IdempotentCall): Promise<StoredResult | undefined>;
  /** The answer is stored compacted under an idempotency key: a replay puts it back (a batch's payout ids). */
  expandStored?(db: Queryable, merchantId: string, body: string): Promise<string>;
}

/** The core's implementation of one action of the contract (lib/contract/actions.ts): it reads, or it writes. */
export type Action<N extends ActionName = ActionName> = ReadAction<N> | WriteAction<N, unknown>;

/** Every action of the contract, by name: assembled above the domains (lib/payments/core.ts) and handed to the pipeline. */
export type ActionTable = { readonly [N in ActionName]: Action<N> };

/** Actions with their types erased, as the pipeline holds them: the contract schema has validated the input they get. */
export type AnyReadAction = ReadAction & { read(ctx: ActionContext, input: unknown): Promise<object> };
export type AnyWriteAction = WriteAction<ActionName, unknown> & {
  plan?(ctx: RequestContext, input: unknown): unknown;
  write(ctx: ActionContext, plan: unknown): Promise<object>;
};
export type AnyAction = AnyReadAction | AnyWriteAction;

const contractOf = <N extends ActionName>(name: N, mutates: boolean) => {
  const contract = ACTIONS[name];
  if (contract.mutates !== mutates) throw new Error(`${name} ${mutates ? 'does not change state' : 'changes state'} in the contract`);
  return contract;
};

/** An action that reads (its contract must say it changes nothing). */
export const readAction = <N extends ActionName>(name: N, read: ReadAction<N>['read']): ReadAction<N> => ({
  name,
  contract: contractOf(name, false),
  read,
});

type WriteOptions<N extends ActionName, Plan> = Omit<WriteAction<N, Plan>, 'name' | 'contract' | 'write' | 'plan'>;

/** An action that writes (its contract must say it changes state): the request is its plan, or `plan` makes one first. */
export function writeAction<N extends ActionName>(
  name: N,
  write: WriteAction<N>['write'],
  opts?: WriteOptions<N, ActionRequest<N>>,
): WriteAction<N>;
export function writeAction<N extends ActionName, Plan>(
  name: N,
  write: WriteAction<N, Plan>['write'],
  opts: WriteOptions<N, Plan> & { plan: NonNullable<WriteAction<N, Plan>['plan']> },
): WriteAction<N, Plan>;
export function writeAction<N extends ActionName, Plan>(
  name: N,
  write: WriteAction<N, Plan>['write'],
  opts: WriteOptions<N, Plan> & { plan?: WriteAction<N, Plan>['plan'] } = {},
): WriteAction<N, Plan> {
  return { name, contract: contractOf(name, true), write, ...opts };
}
