import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/types';
import { createAuthenticator } from '@/lib/payments/pipeline/authenticate';
import { createLogger } from '@/lib/log';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { freshAuthWindow } from '../helpers/auth-window';
import { backends } from '../../testing/databases';

const log = createLogger({ level: 'silent' });

describe.each(backends)('authentication looked up together ($name)', (backend) => {
  let db: Db;
  beforeAll(async () => {
    db = await backend.open();
  });
  afterAll(async () => db.close());

  it('answers requests that authenticate at once from one statement, each with its own merchant, key or refusal', async () => {
    const [a, b] = await Promise.all([
      createMerchant(db, { name: 'A', openingBalance: 0 }),
      createMerchant(db, { name: 'B', openingBalance: 0 }),
    ]);
    // The real database, with its statements counted.
    const statements: string[] = [];
    const counted = { ...db, query: (sql: string, params?: readonly unknown[]) => (statements.push(sql), db.query(sql, params)) } as Db;
    const authenticate = createAuthenticator(counted, 20, log);
    const results = await Promise.allSettled([
      authenticate(`Bearer ${a.secretKey}`, '10.0.0.1'),
      authenticate(`Bearer ${b.secretKey}`, '10.0.0.2'),
      authenticate('Bearer sk_test_' + 'x'.repeat(40), '10.0.0.3'),
      authenticate(null, '10.0.0.4'),
      authenticate(`bearer ${a.secretKey}`, '10.0.0.5'),
    ]);
    const merchantOf = (r: PromiseSettledResult<{ merchant: { id: string } }>) =>
      r.status === 'fulfilled' ? r.value.merchant.id : (r.reason as { code: string }).code;
    expect(results.map(merchantOf)).toEqual([a.id, b.id, 'unauthorized', 'unauthorized', a.id]);
    // One look-up for all five, then one failure count for each of the two refusals.
    expect(statements.filter((s) => s.includes('FROM unnest($1::text[], $2::text[]) WITH ORDINALITY'))).toHaveLength(1);
    expect(statements.filter((s) => s.includes('INSERT INTO auth_failures'))).toHaveLength(2);
  });

  it('keeps the per-address limit per request in a shared look-up', async () => {
    const m = await createMerchant(db, { name: 'C', openingBalance: 0 });
    const authenticate = createAuthenticator(db, 2, log);
    await freshAuthWindow();
    for (let i = 0; i < 2; i++) await authenticate('Bearer nope', '10.9.9.9').catch(() => {});
    const results = await Promise.allSettled([authenticate('Bearer nope', '10.9.9.9'), authenticate(`Bearer ${m.secretKey}`, '10.9.9.8')]);
    expect(results.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as { code: string }).code))).toEqual(['rate_limited', 'ok']);
  });
});
