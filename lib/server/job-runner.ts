// The timer loop of a process's jobs, apart from the payment jobs themselves (background-jobs.ts): the
// console's side runs its purges on it without loading anything of the payment core.
import type { Logger } from '../log';

/** Told after every run of a job: for the metrics. */
export type JobObserver = (job: string, outcome: 'ok' | 'failed', ms: number) => void;

export interface Job {
  name: string;
  /** Milliseconds between the ends of two runs. */
  everyMs: number;
  /** 'more': the run stopped at its bound with work left, so the next one starts at once instead of a period later. */
  run(): Promise<void | 'more'>;
}

/**
 * Runs each job on its own timer with its own error handling: one that fails logs once until it
 * recovers and never stops the others. `stop()` waits for runs in progress.
 */
export function runJobs(jobs: Job[], log: Logger, opts: { tickMs?: number; observe?: JobObserver } = {}) {
  const tickMs = opts.tickMs ?? 1000;
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();

  const schedule = (job: Job, failing: boolean, delay: number) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const started = performance.now();
      const run = job
        .run()
        .then((outcome) => {
          opts.observe?.(job.name, 'ok', performance.now() - started);
          if (failing) log.info({ job: job.name }, 'background job recovered');
          return outcome === 'more' ? ('more' as const) : false;
        })
        .catch((err) => {
          opts.observe?.(job.name, 'failed', performance.now() - started);
          if (!failing && !stopped) log.error({ err, job: job.name }, 'background job failed; retrying on its next tick');
          return true;
        })
        .then((next) => {
          running.delete(run);
          schedule(job, next === true, next === 'more' ? 0 : job.everyMs);
        });
      running.add(run);
    }, delay);
    timer.unref();
    timers.add(timer);
  };
  // The purges run once soon after start, then on their own period.
  for (const job of jobs) schedule(job, false, Math.min(job.everyMs, tickMs));

  return {
    /** Stops at a safe point: no new run starts, runs in progress finish (each is one transaction per batch). */
    async stop() {
      stopped = true;
      timers.forEach(clearTimeout);
      await Promise.all(running);
    },
  };
}
