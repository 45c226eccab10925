import type { ActionName } from '../../contract';
import { isDatabaseUnavailable, type Db } from '../../db/types';
import type { AnyWriteAction, GroupMember, StoredResult, WriteAction } from './action';
import { createGroupQueue } from './group-queue';
import { writeAlone } from './write-plan';

/** At most this many requests in one transaction (the batch action's bound). */
export const MAX_GROUP_SIZE = 1000;

/**
 * Group commit for an action with a GroupWriter: concurrent requests are written together, one
 * transaction per group (group-queue.ts decides who goes together; a lone request goes alone, at
 * once, through the ordinary path, write-plan.ts). Two requests with the same key never share a group.
 *
 * A group whose transaction fails for any reason but a lost database runs its requests again one by
 * one, each in its own transaction as without grouping: nothing is ever written without its
 * idempotency record and answer. A lost database fails every request as it would fail one (503).
 */
export function createGroupCommit<Plan>(
  db: Db,
  action: WriteAction<ActionName, Plan>,
  opts: { waitSeconds: number; maxSize?: number; onGroup?: (size: number) => void },
) {
  const writer = action.group;
  if (!writer) throw new Error(`${action.name} cannot be written in a group`);
  /** A member alone, exactly as without grouping: a lone request, a replay, and a group that failed. */
  const alone = (m: GroupMember<Plan>) => writeAlone(db, action as AnyWriteAction, m.ctx, m.plan, m.call, m.requestId);
  const commitOpts = { waitSeconds: opts.waitSeconds, alone };
  const queue = createGroupQueue<GroupMember<Plan>, StoredResult>({
    maxSize: opts.maxSize ?? MAX_GROUP_SIZE,
    keyOf: (m) => (m.call ? `${m.call.merchantId} ${m.call.key}` : undefined),
    run: async (group) => {
      opts.onGroup?.(group.length);
      if (group.length === 1) return Promise.allSettled([alone(group[0]!)]);
      try {
        return await writer.commit(db, group, commitOpts);
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw error;
        // A deadlock, a key held by another instance past the wait, a statement that failed: each request
        // alone, in a transaction of its own (at once: one key that waits must not hold up the others).
        return Promise.allSettled(group.map(alone));
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
