import { isDatabaseUnavailable, type Db } from '../../db/types';
import { createGroupQueue } from './group-queue';
import type { IdempotentCall, StoredResult } from './idempotency';

/** One request waiting for its group: its plan (Action.prepare), its key, and its path alone. */
export interface GroupMember<Plan> {
  plan: Plan;
  /** Its idempotency key, when the request sent one. */
  call?: IdempotentCall;
  requestId: string;
  /** The request alone, exactly as without grouping (write-plan.ts): for a lone request, a replay, and a group that failed. */
  alone(): Promise<StoredResult>;
}

/**
 * How an action writes many plans in one transaction (Action.group): claims the members' keys, writes
 * every plan it takes and stores each answer, and gives each member its result ('alone' members are
 * answered by their own path after the commit). A throw sends every member alone.
 */
export interface GroupWriter<Plan> {
  commit(db: Db, members: GroupMember<Plan>[], opts: { waitSeconds: number }): Promise<PromiseSettledResult<StoredResult>[]>;
}

/** At most this many requests in one transaction (the batch action's bound). */
export const MAX_GROUP_SIZE = 1000;

/**
 * Group commit for any action with a GroupWriter: concurrent requests are written together, one
 * transaction per group (group-queue.ts decides who goes together; a lone request goes alone, at
 * once, through the ordinary path). Two requests with the same key never share a group.
 *
 * A group whose transaction fails for any reason but a lost database runs its requests again one by
 * one, each in its own transaction as without grouping: nothing is ever written without its
 * idempotency record and answer. A lost database fails every request as it would fail one (503).
 */
export function createGroupCommit<Plan>(
  db: Db,
  writer: GroupWriter<Plan>,
  opts: { waitSeconds: number; maxSize?: number; onGroup?: (size: number) => void },
) {
  const queue = createGroupQueue<GroupMember<Plan>, StoredResult>({
    maxSize: opts.maxSize ?? MAX_GROUP_SIZE,
    keyOf: (m) => (m.call ? `${m.call.merchantId} ${m.call.key}` : undefined),
    run: async (group) => {
      opts.onGroup?.(group.length);
      if (group.length === 1) return Promise.allSettled([group[0]!.alone()]);
      try {
        return await writer.commit(db, group, { waitSeconds: opts.waitSeconds });
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw error;
        // A deadlock, a key held by another instance past the wait, a statement that failed: each request
        // alone, in a transaction of its own (at once: one key that waits must not hold up the others).
        return Promise.allSettled(group.map((m) => m.alone()));
      }
    },
  });
  return {
    submit: (m: GroupMember<Plan>) => queue.submit(m),
    get waiting() {
      return queue.waiting;
    },
  };
}

export type GroupCommit<Plan> = ReturnType<typeof createGroupCommit<Plan>>;
