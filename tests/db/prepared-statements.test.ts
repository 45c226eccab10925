// The hot statements (lib/db/prepared.ts) are prepared once per PostgreSQL connection, and
// only they: a connection never accumulates a statement per ad-hoc text.
import { describe, expect, it } from 'vitest';
import { openDb } from '@/lib/db/open-db';
import { ALL_ADDRESSES } from '@/lib/db/auth-failures';
import { AUTH_ONE_SQL, AUTH_SQL } from '@/lib/payments/pipeline/authenticate';
import { createSchemaUrl, postgresUrl } from '../../testing/databases';

const run = async (preparedStatements: boolean) => {
  // One connection, so that pg_prepared_statements (per session) sees what the calls left.
  const db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 1, limits: { preparedStatements } });
  try {
    for (let i = 0; i < 3; i++) await db.query(AUTH_SQL, [['no-such-hash'], ['127.0.0.1'], ALL_ADDRESSES]);
    await db.query('SELECT count(*) FROM payouts WHERE amount > $1', [1]);
    return await db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
  } finally {
    await db.close();
  }
};

describe.runIf(postgresUrl)('prepared statements (postgres)', () => {
  it('runs a marked statement as one named statement per connection, and nothing else', async () => {
    const statements = await run(true);
    expect(statements.map((s) => s.statement)).toEqual([AUTH_SQL]);
  });

  it('names none when turned off (behind a transaction-mode pooler)', async () => {
    expect(await run(false)).toEqual([]);
  });

  it("keeps one generic plan for a lone request's authentication, instead of planning it at every call", async () => {
    // With arrays, a plan for one key always looked cheaper than the generic plan's guess of ten: 0.65 ms
    // of planning at every request's bind. PostgreSQL tries 5 custom plans, then keeps the generic one.
    const db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 1, limits: { preparedStatements: true } });
    try {
      for (let i = 0; i < 10; i++) await db.query(AUTH_ONE_SQL, ['no-such-hash', '127.0.0.1', ALL_ADDRESSES]);
      const [plans] = await db.query<{ generic_plans: number; custom_plans: number }>(
        'SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE statement = $1',
        [AUTH_ONE_SQL],
      );
      expect(plans).toEqual({ generic_plans: 5, custom_plans: 5 });
    } finally {
      await db.close();
    }
  });
});
