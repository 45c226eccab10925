import { whereNoDaemon } from '../../db/daemon-upkeep';
import type { Db } from '../../db/types';

/**
 * payout_states churns: a payout's row is deleted and inserted again when its state changes (migration 082), so
 * a settled backlog leaves as many dead rows and index entries, which a list by status steps over until vacuumed. On a
 * PostgreSQL server with autovacuum on, its storage parameters (migration 050) have the daemon vacuum it once
 * 10,000 rows are dead. Without the daemon, nothing would: PGlite never has one, and a server may run with
 * autovacuum off (this project's CI machine does). Then the settlement job vacuums it itself, after every
 * `every` payouts it settled; `SKIP_LOCKED`: an instance already vacuuming it is enough.
 * Returns a function told how many payouts a tick settled, answering whether it vacuumed.
 */
export function payoutStatesVacuum(db: Db, every = 10_000) {
  let settled = 0;
  const vacuum = whereNoDaemon(db, 'VACUUM', async () => ['payout_states']);
  return async (justSettled: number): Promise<boolean> => {
    settled += justSettled;
    if (settled < every) return false;
    settled = 0;
    return (await vacuum()).length > 0;
  };
}
