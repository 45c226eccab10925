// Where a settlement batch's time goes (PostgreSQL): a backlog of EXPLAIN_SETTLE_PAYOUTS due payouts (default
// 100,000), then EXPLAIN (ANALYZE, BUFFERS) of the claim and of the settling statement for one batch of 1,000,
// each in a transaction rolled back. Run: DATABASE_URL=postgres://… npx tsx bench/explain-settlement.ts
import { openDb } from '../lib/db/open-db';
import { simulatedOutcome } from '../lib/contract';
import { CLAIM_SQL, SETTLE_SQL, type DuePayout } from '../lib/payments/payouts/settlement';
import { createSchemaUrl, dropSchemas } from '../testing/databases';
import { writeBacklog } from './settlement-backlog';

const N = Number(process.env.EXPLAIN_SETTLE_PAYOUTS ?? 100_000);

async function main() {
  const db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 2 });
  await writeBacklog(db, N, 20);
  const plan = async (sql: string, params: unknown[]) =>
    (await db
      .transaction(async (tx) => {
        const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
        throw Object.assign(new Error('rollback'), { rows });
      })
      .catch((e: { rows?: { 'QUERY PLAN': string }[] }) => {
        if (!e.rows) throw e;
        return e.rows.map((r) => r['QUERY PLAN']).join('\n');
      })) as string;
  process.stdout.write(`## claim of 1,000 (backlog ${N})\n${await plan(CLAIM_SQL, [1000])}\n\n`);
  const due = await db.query<DuePayout>(CLAIM_SQL.replace(' FOR UPDATE SKIP LOCKED', ''), [1000]);
  const outcomes = due.map((p) => simulatedOutcome(p.account_number));
  process.stdout.write(
    `## settling statement, 1,000 payouts\n${await plan(SETTLE_SQL, [
      due.map((p) => p.id),
      outcomes.map((o) => (o.kind === 'failed' ? o.failureCode : null)),
      outcomes.map((o) => (o.kind === 'failed' ? o.failureMessage : null)),
    ])}\n`,
  );
  await db.close();
  await dropSchemas();
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
