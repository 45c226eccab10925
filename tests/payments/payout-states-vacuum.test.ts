// payout_states, a queue, is vacuumed by the settlement job where no autovacuum daemon will (PGlite, or a
// server with autovacuum off), after every so many settled payouts, and left to the daemon where it runs.
import { describe, expect, it } from 'vitest';
import { payoutStatesVacuum } from '@/lib/payments/payouts/payout-states-vacuum';
import { autovacuumDaemonRuns } from '@/lib/db/daemon-upkeep';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { payoutBatch, withTestApi } from '../helpers/api-server';
import { backends } from '../../testing/databases';

describe.each(backends)('payout_states vacuum ($name)', (backend) => {
  it('vacuums after every `every` settled payouts, unless an autovacuum daemon runs', async () => {
    await withTestApi(backend, { openingBalance: 10_000_000, settings: { settlementDelaySeconds: 0 } }, async (api) => {
      expect((await api.call(payoutBatch(25))).status).toBe(200);
      const settled = await settleDuePayouts(api.db);
      expect(settled.paid).toBe(25);

      const daemon = await autovacuumDaemonRuns(api.db);
      const vacuum = payoutStatesVacuum(api.db, 20);
      expect(await vacuum(10)).toBe(false); // 10 of 20
      expect(await vacuum(15)).toBe(!daemon); // 25: vacuumed here unless the daemon does it
      expect(await vacuum(5)).toBe(false); // counted afresh

      if (api.db.kind === 'postgres' && !daemon) {
        // The count, not the dead rows left: what VACUUM may remove depends on every transaction open in the database
        // at that moment, and the suite's other files (and other schemas' tests) share it.
        const [stats] = await api.db.query<{ vacuums: number }>(
          `SELECT vacuum_count::int AS vacuums FROM pg_stat_user_tables WHERE relid = 'payout_states'::regclass`,
        );
        expect(stats).toEqual({ vacuums: 1 });
      }
    });
  });
});
