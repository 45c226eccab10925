// Every event is written through lib/payments/event-sql.ts (eventCtes), which also writes its deliveries:
// an INSERT INTO events anywhere else could write an event that no endpoint ever hears of.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(__dirname, '../..');
const sources = (dir: string): string[] =>
  fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    return e.isDirectory() ? sources(rel) : /\.tsx?$/.test(e.name) ? [rel] : [];
  });

describe('event writes', () => {
  it('happen only in lib/payments/event-sql.ts', () => {
    const writers = ['lib', 'app', 'scripts'].flatMap(sources).filter((f) => /INSERT\s+INTO\s+events\b/i.test(fs.readFileSync(path.join(root, f), 'utf8')));
    expect(writers).toEqual(['lib/payments/event-sql.ts']);
  });

  it('and every state change that reports one goes through it', () => {
    const users = ['lib'].flatMap(sources).filter((f) => fs.readFileSync(path.join(root, f), 'utf8').includes('eventCtes('));
    expect(users.sort()).toEqual(
      [
        'lib/payments/actions/checkout-sessions.ts', // expire_checkout_session
        'lib/payments/actions/payout-batches.ts', // payout.created for each payout of a batch
        'lib/payments/checkout-payment.ts', // checkout_session.completed
        'lib/payments/settlement.ts', // payout.paid, payout.failed, the expiry job
        'lib/payments/withdraw-statement.ts', // payout.created
      ].sort(),
    );
  });
});
