import { describe, expect, it } from 'vitest';
import { createGroupQueue } from '@/lib/payments/pipeline/group-queue';

/** A queue whose groups are recorded and held open until released, so a test decides when one commits. */
function recordingQueue(opts: { maxSize?: number; keyOf?: (x: string) => string | undefined } = {}) {
  const groups: string[][] = [];
  const releases: Array<() => void> = [];
  const queue = createGroupQueue<string, string>({
    maxSize: opts.maxSize ?? 100,
    keyOf: opts.keyOf,
    run: async (group) => {
      groups.push(group);
      await new Promise<void>((r) => releases.push(r));
      return group.map((x) =>
        x.startsWith('bad') ? { status: 'rejected', reason: new Error(x) } : { status: 'fulfilled', value: `done ${x}` },
      );
    },
  });
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { queue, groups, release: async () => (releases.shift()!(), settle()), settle };
}

describe('group queue (natural batching)', () => {
  it('sends a lone item at once, with no timer', async () => {
    const { queue, groups, release, settle } = recordingQueue();
    const done = queue.submit('a');
    await settle();
    expect(groups).toEqual([['a']]);
    await release();
    await expect(done).resolves.toBe('done a');
  });

  it('items submitted while a group is in flight go together as the next group, in arrival order', async () => {
    const { queue, groups, release, settle } = recordingQueue();
    const first = queue.submit('a');
    await settle();
    const later = ['b', 'c', 'd'].map((x) => queue.submit(x));
    await settle();
    expect(groups).toEqual([['a']]);
    expect(queue.waiting).toBe(3);
    await release();
    expect(groups).toEqual([['a'], ['b', 'c', 'd']]);
    await release();
    await expect(Promise.all([first, ...later])).resolves.toEqual(['done a', 'done b', 'done c', 'done d']);
  });

  it('bounds a group by maxSize; the rest keep their order for the next', async () => {
    const { queue, groups, release, settle } = recordingQueue({ maxSize: 2 });
    const all = ['a', 'b', 'c', 'd', 'e'].map((x) => queue.submit(x));
    await settle();
    for (let i = 0; i < 3; i++) await release();
    expect(groups).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    await Promise.all(all);
  });

  it('never puts two items with the same key in one group: the later waits for the next', async () => {
    const { queue, groups, release, settle } = recordingQueue({ keyOf: (x) => x.split(':')[0] });
    const all = ['k1:a', 'k2:b', 'k1:c', 'k3:d', 'k1:e'].map((x) => queue.submit(x));
    await settle();
    for (let i = 0; i < 3; i++) await release();
    expect(groups).toEqual([['k1:a', 'k2:b', 'k3:d'], ['k1:c'], ['k1:e']]);
    await Promise.all(all);
  });

  it('settles each item with its own result, and rejects every item of a group whose run throws', async () => {
    const { queue, release, settle } = recordingQueue();
    const ok = queue.submit('a');
    const bad = queue.submit('bad-b');
    await settle();
    await release();
    await expect(ok).resolves.toBe('done a');
    await expect(bad).rejects.toThrow('bad-b');

    let down = true;
    const flaky = createGroupQueue<string, string>({
      maxSize: 10,
      run: async (g) => {
        if (down) throw new Error('connection lost');
        return g.map((x) => ({ status: 'fulfilled', value: x }));
      },
    });
    const results = await Promise.allSettled([flaky.submit('x'), flaky.submit('y')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    // The queue goes on after a failed group.
    down = false;
    await expect(flaky.submit('z')).resolves.toBe('z');
  });
});
