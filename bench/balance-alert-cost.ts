// What the low-balance alert (migration 45: the generated balance_low column and the row trigger on balances)
// costs a withdrawal, on PostgreSQL: the very statement a withdrawal runs (withdraw-statement.ts), one after the
// other on one merchant's row, on two schemas prepared alike, one as migrated (with a threshold the balance
// stays above, so the trigger's WHEN is evaluated on every update and never fires) and one with the column and
// the triggers dropped. Interleaved rounds in a new order each; the ratio is taken within each round, then its median.
// DATABASE_URL=postgres://… npx tsx bench/balance-alert-cost.ts [statements per round] [rounds]
import { openDb } from '../lib/db/open-db';
import type { Db } from '../lib/db/types';
import { createMerchant } from '../lib/payments/merchants/merchants';
import { newId } from '../lib/payments/pipeline/random-id';
import { withdrawStatement } from '../lib/payments/payouts/withdraw-statement';
import { createSchemaUrl, dropSchemas } from '../testing/databases';
import { median } from './paired';

async function prepare(withAlert: boolean): Promise<{ db: Db; merchantId: string }> {
  const db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 1 });
  const m = await createMerchant(db, { name: 'Bench', openingBalance: 1_000_000_000_000 });
  if (withAlert) await db.query('UPDATE merchants SET low_balance_threshold = 1000 WHERE id = $1', [m.id]);
  else await db.exec('DROP TRIGGER balance_alert_event ON balances; ALTER TABLE balances DROP COLUMN balance_low');
  return { db, merchantId: m.id };
}

/** `n` withdrawals in one transaction: the statements' own cost, not the commits' (fsync is the same on both sides). */
async function withdrawals(target: { db: Db; merchantId: string }, n: number): Promise<number> {
  const started = process.hrtime.bigint();
  await target.db.transaction(async (tx) => {
    for (let i = 0; i < n; i++) {
      const { sql, params } = withdrawStatement({
        payoutId: newId('po'),
        merchantId: target.merchantId,
        amount: 10_000,
        currency: 'IDR',
        bankCode: 'BCA',
        accountNumber: '1234567890',
        settleDelaySeconds: 3600,
        createdBy: 'null',
        status: 'pending',
        accountHolderName: null,
        approvalExpirySeconds: null,
      });
      await tx.query(sql, params);
    }
  });
  return n / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function main() {
  const n = Number(process.argv[2] ?? 3000);
  const rounds = Number(process.argv[3] ?? 5);
  const targets = { with: await prepare(true), without: await prepare(false) };
  const rate = { with: [] as number[], without: [] as number[] };
  try {
    for (const t of Object.values(targets)) await withdrawals(t, 2000); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const which of Math.random() < 0.5 ? (['with', 'without'] as const) : (['without', 'with'] as const))
        rate[which].push(await withdrawals(targets[which], n));
      console.log(`round ${round + 1}: ${Math.round(rate.without.at(-1)!)}/s without, ${Math.round(rate.with.at(-1)!)}/s with the alert`);
    }
    const ratio = median(rate.with.map((w, i) => w / rate.without[i]!));
    console.log(
      JSON.stringify({
        statements: n,
        rounds,
        withoutAlert: Math.round(median(rate.without)),
        withAlert: Math.round(median(rate.with)),
        ratio: Math.round(ratio * 1000) / 1000,
      }),
    );
  } finally {
    await Promise.all([targets.with.db.close(), targets.without.db.close()]);
    await dropSchemas();
  }
}

void main();
