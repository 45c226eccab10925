// Where a group's write spends its time (PostgreSQL): EXPLAIN (ANALYZE, BUFFERS) of the group statement
// (withdraw-group-statements.ts) for EXPLAIN_GROUP_SIZE withdrawals of one merchant (default 30, about the mean group
// at 64 clients), their keys claimed first in the same transaction as a group's are, EXPLAIN_GROUP_RUNS times
// (default 20), each rolled back, after EXPLAIN_WITHDRAW_HISTORY payouts (default 5,000). The merchant's balance row
// is locked from the statement's UPDATE to COMMIT: every part after the UPDATE is time the next group waits.
// Run: DATABASE_URL=postgres://… npx tsx bench/explain-withdraw-group.ts
import { randomUUID } from 'node:crypto';
import { openDb } from '../lib/db/open-db';
import type { Queryable } from '../lib/db/types';
import { createMerchant } from '../lib/payments/merchants/merchants';
import { writeGroupStatement } from '../lib/payments/payouts/withdraw-group-statements';
import type { WithdrawalRow } from '../lib/payments/payouts/withdraw-statement';
import { createSchemaUrl, dropSchemas } from '../testing/databases';
import { addPlanParts, explainRolledBack, partMedians } from './explain-rolled-back';
import { analyzeSchema } from '../testing/volume-data';

const SIZE = Number(process.env.EXPLAIN_GROUP_SIZE ?? 30);
const RUNS = Number(process.env.EXPLAIN_GROUP_RUNS ?? 20);
const HISTORY = Number(process.env.EXPLAIN_WITHDRAW_HISTORY ?? 5_000);

async function main() {
  const db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 2 });
  const merchant = await createMerchant(db, { name: 'Explained', openingBalance: 1_000_000_000_000 });
  const [key] = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE merchant_id = $1 LIMIT 1', [merchant.id]);
  const row = (): WithdrawalRow => ({
    payoutId: `po_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    merchantId: merchant.id,
    amount: 1_000,
    currency: 'IDR',
    bankCode: 'BCA',
    accountNumber: '1234567890',
    settleDelaySeconds: 86_400,
    createdBy: JSON.stringify({ key_id: key!.id, key_name: null, type: 'secret' }),
    status: 'pending',
    accountHolderName: 'Explained',
    approvalExpirySeconds: null,
  });
  /** A group of `size`: its keys, claimed in `tx`, and its statement. */
  const group = async (tx: Queryable, size: number) => {
    const rows = Array.from({ length: size }, row);
    const keys = rows.map(() => `explain-${randomUUID()}`);
    await tx.query(
      `INSERT INTO idempotency_keys (merchant_id, key, action, fingerprint) SELECT $1, k, 'withdraw', 'f' FROM unnest($2::text[]) AS k`,
      [merchant.id, keys],
    );
    return writeGroupStatement(rows, {
      merchantIds: rows.map(() => merchant.id),
      keys,
      statuses: rows.map(() => 200),
      bodies: rows.map((r) => JSON.stringify({ id: r.payoutId })),
      refs: rows.map((r) => r.payoutId),
    });
  };
  for (let n = 0; n < HISTORY; n += 500) {
    await db.transaction(async (tx) => {
      const { sql, params } = await group(tx, Math.min(500, HISTORY - n));
      await tx.query(sql, params);
    });
  }
  await analyzeSchema(db);
  const parts = new Map<string, number[]>();
  let last = '';
  for (let run = 0; run < RUNS; run++) {
    last = await explainRolledBack(db, 'ANALYZE, BUFFERS, WAL', (tx) => group(tx, SIZE));
    addPlanParts(parts, last);
  }
  process.stdout.write(
    `## group of ${SIZE}, history ${HISTORY}, last of ${RUNS} runs\n${last}\n\n## median ms over ${RUNS} runs\n${partMedians(parts)}`,
  );
  await db.close();
  await dropSchemas();
}

void main();
