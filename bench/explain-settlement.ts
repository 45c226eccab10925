// Where a settlement batch's time goes (PostgreSQL): a backlog of EXPLAIN_SETTLE_PAYOUTS due payouts (default
// 100,000), then EXPLAIN (ANALYZE, BUFFERS) of the claim and of the settling statement for one batch of 1,000,
// each in a transaction rolled back; then the cost of the claim's test-clock check (notOnTestClockSql): the claim
// timed with and without it, with no sandbox and with 1,000 sandboxes (half on a test clock), and with a bank down.
// Run: DATABASE_URL=postgres://… npx tsx bench/explain-settlement.ts
import { openDb } from '../lib/db/open-db';
import { simulatedOutcome } from '../lib/contract';
import { BALANCES_SQL, CLAIM_SQL, SETTLE_SQL, type DuePayout } from '../lib/payments/payouts/settlement';
import { createSchemaUrl, dropSchemas } from '../testing/databases';
import { writeBacklog } from './settlement-backlog';
import { explainRolledBack } from './explain-rolled-back';

const N = Number(process.env.EXPLAIN_SETTLE_PAYOUTS ?? 100_000);

async function main() {
  const db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 2 });
  await writeBacklog(db, N, 20);
  const plan = (sql: string, params: unknown[]) => explainRolledBack(db, 'ANALYZE, BUFFERS', () => ({ sql, params }));
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
  const [merchants] = await db.query<{ m: string[]; s: string[] }>(
    `SELECT array_agg(merchant_id) AS m, array_agg(total::text) AS s FROM (SELECT merchant_id, sum(amount) AS total FROM payouts
     WHERE id = ANY($1) GROUP BY 1) x`,
    [due.map((p) => p.id)],
  );
  process.stdout.write(
    `## balances statement, ${merchants!.m.length} merchants, no failure\n${await plan(BALANCES_SQL, [merchants!.m, merchants!.s, merchants!.m.map(() => '0'), [], [], []])}\n\n`,
  );
  process.stdout.write(`## the claim's test-clock check and bank outages (ms per claim of 1,000, median of 25)\n`);
  const noClock = CLAIM_SQL.replace(/AND NOT EXISTS \(SELECT 1 FROM sandboxes clocked[^)]*\)/, '');
  if (noClock === CLAIM_SQL) throw new Error('the claim no longer holds the test-clock check');
  const once = (sql: string) =>
    db
      .transaction(async (tx) => {
        const t = performance.now();
        await tx.query(sql, [1000]);
        throw Object.assign(new Error('rollback'), { ms: performance.now() - t });
      })
      .catch((e: { ms: number }) => e.ms);
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(2);
  // Alternated, after a warm-up of each: the machine's noise falls on both alike.
  const row = async (label: string) => {
    const a: number[] = [];
    const b: number[] = [];
    await once(CLAIM_SQL);
    await once(noClock);
    for (let i = 0; i < 25; i++) {
      a.push(await once(CLAIM_SQL));
      b.push(await once(noClock));
    }
    process.stdout.write(`| ${label} | ${median(a)} | ${median(b)} |\n`);
  };
  process.stdout.write('| database | with the check | without |\n|---|---:|---:|\n');
  await row('no sandbox');
  await db.query(`INSERT INTO merchants (id, name, currency) SELECT 'acct_sbx' || g, 'S' || g, 'IDR' FROM generate_series(1, 1000) g`);
  await db.query(
    `INSERT INTO sandboxes (id, parent_id, merchant_id, name, initial_balance, expires_at, clock_now)
     SELECT 'sbx_' || g, 'acct_bench1', 'acct_sbx' || g, 'S', 0, now() + interval '1 day', CASE WHEN g % 2 = 0 THEN now() END
     FROM generate_series(1, 1000) g`,
  );
  await db.exec('ANALYZE sandboxes');
  await row('1,000 sandboxes, 500 on a test clock');
  process.stdout.write(`\n## claim of 1,000 with 1,000 sandboxes\n${await plan(CLAIM_SQL, [1000])}\n\n`);
  await db.query(`INSERT INTO bank_outages (bank_code, ends_at) VALUES ('BNI', now() + interval '1 hour')`);
  await row('the same, another bank down');
  await db.close();
  await dropSchemas();
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
