// The app's own ANALYZE where no autovacuum daemon runs (PGlite, or a server with autovacuum off): a table bulk
// loaded has no statistics until the table_statistics job sees its changed rows and analyzes it; a table that did
// not change since is left alone; where the daemon runs, the job leaves it to the daemon.
import { describe, expect, it } from 'vitest';
import { tableStatistics } from '@/lib/db/table-statistics';
import { autovacuumDaemonRuns } from '@/lib/db/daemon-upkeep';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { backends } from '../../testing/databases';
import { writeHistory } from '../../testing/volume-data';

describe.each(backends)('table statistics ($name)', (backend) => {
  it('analyzes the tables a bulk load filled, once, unless an autovacuum daemon runs', async () => {
    const db = await backend.open();
    try {
      const daemon = await autovacuumDaemonRuns(db);
      const m = await createMerchant(db, { name: 'Bulk', openingBalance: 0 });
      const [key] = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE merchant_id = $1', [m.id]);
      await writeHistory(db, { merchantId: m.id, keyId: key!.id, n: 5_000, tag: 'b', mix: 'pending', analyze: false });
      const statsOf = async () =>
        (
          await db.query<{ table: string }>(
            `SELECT DISTINCT tablename AS table FROM pg_stats WHERE schemaname = current_schema() AND tablename IN ('payouts', 'ledger_entries', 'events', 'payout_states') ORDER BY 1`,
          )
        ).map((r) => r.table);
      if (daemon) return void expect(await tableStatistics(db)()).toEqual([]);
      expect(await statsOf()).toEqual([]);

      // A server reports a backend's table counts within a second or so of its commit: the job sees them on a later run.
      const analyze = tableStatistics(db);
      const analyzed = new Set<string>();
      for (let i = 0; i < 40 && !['payouts', 'ledger_entries', 'events', 'payout_states'].every((t) => analyzed.has(t)); i++) {
        (await analyze()).forEach((t) => analyzed.add(t));
        if (i > 0) await new Promise((r) => setTimeout(r, 500));
      }
      expect([...analyzed]).toEqual(expect.arrayContaining(['payouts', 'ledger_entries', 'events', 'payout_states']));
      expect(await statsOf()).toEqual(['events', 'ledger_entries', 'payout_states', 'payouts']);
      // Nothing changed since: nothing to analyze (a few rows of the merchant's own writes stay under the floor).
      expect(await analyze()).toEqual([]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
