import type { Db } from '../db/types';
import type { Logger } from '../log';
import { purgeExpiredIdempotencyKeys } from '../payments/idempotency';
import { expireCheckoutSessions, settleDuePayouts } from '../payments/settlement';
import { purgeEndedConsoleSessions } from '../session/session-purge';

/**
 * Work that happens after commit, from rows the requests wrote: settling due
 * payouts, expiring checkout sessions, purging idempotency keys past retention
 * and console sessions that ended a day ago.
 * Every job reads its work from the database, so it survives restarts and is safe
 * to run in every instance at once.
 */
export function startBackgroundJobs(db: Db, log: Logger, opts: { idempotencyTtlSeconds: number; tickMs?: number }) {
  const tickMs = opts.tickMs ?? 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let lastPurge = 0;

  const tick = async () => {
    try {
      const settled = await settleDuePayouts(db);
      if (settled.paid + settled.failed > 0) log.info(settled, 'payouts settled');
      await expireCheckoutSessions(db);
      if (Date.now() - lastPurge > 10 * 60_000) {
        lastPurge = Date.now();
        const purged = await purgeExpiredIdempotencyKeys(db, opts.idempotencyTtlSeconds);
        if (purged > 0) log.info({ purged }, 'expired idempotency keys purged');
        const sessions = await purgeEndedConsoleSessions(db);
        if (sessions > 0) log.info({ purged: sessions }, 'ended console sessions purged');
      }
    } catch (err) {
      if (!stopped) log.error({ err }, 'background job failed; retrying next tick');
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, tickMs);
    timer.unref();
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
