// The job runner: a run that stops at its bound with work left is followed by another at once, not a period later.
import { describe, expect, it } from 'vitest';
import { createLogger } from '@/lib/log';
import { settlementJob } from '@/lib/server/background-jobs';
import { runJobs, type Job } from '@/lib/server/job-runner';
import { payoutBatch, withTestApi } from '../helpers/api-server';
import { backends } from '../../testing/databases';

const silent = createLogger({ level: 'silent' });

describe('runJobs', () => {
  it("runs a job again at once after 'more', and only a period later after a run that finished its work", async () => {
    const runs: string[] = [];
    let drained!: () => void;
    const done = new Promise<void>((resolve) => (drained = resolve));
    let left = 3;
    // A period of a minute: should 'more' wait for it, the test times out.
    const backlog: Job = {
      name: 'backlog',
      everyMs: 60_000,
      run: async () => {
        runs.push('backlog');
        if (--left > 0) return 'more';
        drained();
      },
    };
    const idle: Job = { name: 'idle', everyMs: 60_000, run: async () => void runs.push('idle') };
    const jobs = runJobs([backlog, idle], silent, { tickMs: 10 });
    await done;
    await jobs.stop();
    expect(runs.filter((r) => r === 'backlog')).toHaveLength(3);
    expect(runs.filter((r) => r === 'idle')).toHaveLength(1);
  });
});

describe.each(backends)('the settlement job ($name)', (backend) => {
  it("says 'more' while its tick comes back full, and not once the backlog is drained", async () => {
    await withTestApi(backend, { openingBalance: 1_000_000, settings: { settlementDelaySeconds: 0 } }, async (api) => {
      expect((await api.call(payoutBatch(25))).status).toBe(200);
      const job = settlementJob(api.db, silent, 1000, { batchSize: 5, maxBatches: 2 });
      expect([await job.run(), await job.run()]).toEqual(['more', 'more']);
      expect(await job.run()).toBeUndefined(); // the last 5 of 25: below the tick's 10
      const [left] = await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payouts WHERE status = 'pending'`);
      expect(left!.n).toBe(0);
    });
  });
});
