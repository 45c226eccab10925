/**
 * Natural batching (group commit): while one group is being committed, the items
 * submitted meanwhile wait; when it is done they go together as the next group, up
 * to `maxSize`. There is no timer: a lone item goes at once (on the next
 * microtask, so that items submitted in the same tick share a group), and the
 * size of a group follows the load. One group is in flight at a time.
 *
 * Items that share a `keyOf` never go in the same group: the later one waits for
 * the next, where it finds the first one's work committed (an idempotency key sent
 * twice at once: the second is a replay, not a second payout).
 */
export interface GroupQueueOptions<T, R> {
  maxSize: number;
  keyOf?: (item: T) => string | undefined;
  /** Commits a group; one settled result per item, in order. A throw rejects every item with it. */
  run: (group: T[]) => Promise<PromiseSettledResult<R>[]>;
}

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (reason: unknown) => void;
}

export interface GroupQueue<T, R> {
  submit(item: T): Promise<R>;
  /** Items waiting for a group (metrics, tests). */
  readonly waiting: number;
}

export function createGroupQueue<T, R>(opts: GroupQueueOptions<T, R>): GroupQueue<T, R> {
  let queue: Waiting<T, R>[] = [];
  let busy = false;

  /** The next group, in arrival order: up to maxSize items with distinct keys; the rest keep their order. */
  const take = (): Waiting<T, R>[] => {
    const group: Waiting<T, R>[] = [];
    const rest: Waiting<T, R>[] = [];
    const keys = new Set<string>();
    for (const w of queue) {
      const key = opts.keyOf?.(w.item);
      if (group.length < opts.maxSize && (key === undefined || !keys.has(key))) {
        group.push(w);
        if (key !== undefined) keys.add(key);
      } else rest.push(w);
    }
    queue = rest;
    return group;
  };

  const drain = async () => {
    try {
      while (queue.length > 0) {
        const group = take();
        let results: PromiseSettledResult<R>[];
        try {
          results = await opts.run(group.map((w) => w.item));
        } catch (reason) {
          results = group.map(() => ({ status: 'rejected', reason }));
        }
        group.forEach((w, i) => {
          const r = results[i]!;
          if (r.status === 'fulfilled') w.resolve(r.value);
          else w.reject(r.reason);
        });
      }
    } finally {
      busy = false;
    }
  };

  return {
    submit(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!busy) {
          busy = true;
          queueMicrotask(() => void drain());
        }
      });
    },
    get waiting() {
      return queue.length;
    },
  };
}
