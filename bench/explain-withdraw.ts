// Where a lone withdrawal's statement spends its time (PostgreSQL): a merchant with EXPLAIN_WITHDRAW_HISTORY payouts
// behind it (default 20,000), then EXPLAIN (ANALYZE, BUFFERS) of the withdraw statement (withdraw-statement.ts) with
// an idempotency key's stored answer, EXPLAIN_WITHDRAW_RUNS times (default 30), each in a transaction rolled back.
// Prints the last plan, and per part (the statement's plan, each trigger) the median time over the runs: the balance
// row is locked from the statement's UPDATE to COMMIT, so every part after the UPDATE is time the next withdrawal of
// the merchant waits. Run: DATABASE_URL=postgres://… npx tsx bench/explain-withdraw.ts
import { randomUUID } from 'node:crypto';
import { openDb } from '../lib/db/open-db';
import { createMerchant } from '../lib/payments/merchants/merchants';
import { withdrawStatement } from '../lib/payments/payouts/withdraw-statement';
import { createSchemaUrl, dropSchemas } from '../testing/databases';
import { addPlanParts, explainRolledBack, partMedians } from './explain-rolled-back';
import { analyzeSchema } from '../testing/volume-data';

const HISTORY = Number(process.env.EXPLAIN_WITHDRAW_HISTORY ?? 20_000);
const RUNS = Number(process.env.EXPLAIN_WITHDRAW_RUNS ?? 30);

async function main() {
  const db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 2 });
  const merchant = await createMerchant(db, { name: 'Explained', openingBalance: 1_000_000_000_000 });
  const [key] = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE merchant_id = $1 LIMIT 1', [merchant.id]);
  const statement = (n: number) => {
    const id = `po_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    return withdrawStatement(
      {
        payoutId: id,
        merchantId: merchant.id,
        amount: 1_000 + (n % 7),
        currency: 'IDR',
        bankCode: 'BCA',
        accountNumber: '1234567890',
        settleDelaySeconds: 86_400,
        createdBy: JSON.stringify({ key_id: key!.id, key_name: null, type: 'secret' }),
        status: 'pending',
        accountHolderName: 'Explained',
        approvalExpirySeconds: null,
      },
      { merchantId: merchant.id, key: `explain-${n}` },
      JSON.stringify({ id }),
    );
  };
  for (let n = 0; n < HISTORY; n += 500) {
    await db.transaction(async (tx) => {
      for (let i = n; i < Math.min(HISTORY, n + 500); i++) {
        const { sql, params } = statement(i);
        await tx.query(sql, params);
      }
    });
  }
  await analyzeSchema(db);
  const parts = new Map<string, number[]>();
  let last = '';
  for (let run = 0; run < RUNS; run++) {
    last = await explainRolledBack(db, 'ANALYZE, BUFFERS', () => statement(HISTORY + run));
    addPlanParts(parts, last);
  }
  process.stdout.write(
    `## withdraw statement, history ${HISTORY}, last of ${RUNS} runs\n${last}\n\n## median ms over ${RUNS} runs\n${partMedians(parts)}`,
  );
  await db.close();
  await dropSchemas();
}

void main();
