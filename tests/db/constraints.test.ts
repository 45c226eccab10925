// Limits the database enforces itself (migration 003), whatever the code above it does.
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '@/lib/contract';
import { credit } from '@/lib/payments/ledger/ledger';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { backends } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

describe.each(backends)('database constraints ($name)', (backend) => {
  it('refuses a credit that would take a balance past 2^53 - 1, and keeps the balance exact', async () => {
    const db = await backend.open();
    try {
      const m = await createMerchant(db, { name: 'Near the limit', openingBalance: MAX_SAFE - 10 });
      await expect(db.transaction((tx) => credit(tx, m.id, 11, 'adjustment', 'too-much'))).rejects.toThrow();
      await db.transaction((tx) => credit(tx, m.id, 10, 'adjustment', 'just-enough'));
      const check = await ledgerCheck(db, m.id);
      expect(check.available).toBe(MAX_SAFE);
      expect(check.ledger).toBe(MAX_SAFE);
    } finally {
      await db.close();
    }
  });

  it('keeps one ledger entry per payout, per reversal and per checkout payment', async () => {
    const db = await backend.open();
    try {
      const m = await createMerchant(db, { name: 'Twice', openingBalance: 1_000_000 });
      for (const kind of ['payout_reversal', 'checkout_payment'] as const) {
        await db.transaction((tx) => credit(tx, m.id, 1_000, kind, `src_${kind}`));
        await expect(db.transaction((tx) => credit(tx, m.id, 1_000, kind, `src_${kind}`))).rejects.toThrow(
          /one_per_source|duplicate|unique/i,
        );
      }
      // Adjustments may share a reference (a batch of manual corrections).
      await db.transaction((tx) => credit(tx, m.id, 1, 'adjustment', 'same'));
      await db.transaction((tx) => credit(tx, m.id, 1, 'adjustment', 'same'));
      const check = await ledgerCheck(db, m.id);
      expect(check.available).toBe(1_000_000 + 2_000 + 2);
      expect(check.ledger).toBe(check.available);
    } finally {
      await db.close();
    }
  });

  it("keeps one event per object and type, every type's hash in the unique key its own (migration 071)", async () => {
    const db = await backend.open();
    try {
      const [distinct] = await db.query<{ n: number }>('SELECT count(DISTINCT hashtext(t))::int AS n FROM unnest($1::text[]) t', [
        [...EVENT_TYPES],
      ]);
      expect(distinct!.n).toBe(EVENT_TYPES.length);
      const m = await createMerchant(db, { name: 'Events', openingBalance: 0 });
      const insert = (id: string, type: string) =>
        db.query(`INSERT INTO events (id, merchant_id, type, object_id, data) VALUES ($1, $2, $3, 'obj_1', '{}')`, [id, m.id, type]);
      for (const type of EVENT_TYPES) await insert(`evt_a_${type}`, type);
      for (const type of EVENT_TYPES) await expect(insert(`evt_b_${type}`, type)).rejects.toThrow(/events_once_per_transition/);
    } finally {
      await db.close();
    }
  });

  it('finds open checkout sessions past their time by index, and no longer keeps the unused key_hash index', async () => {
    const db = await backend.open();
    try {
      const idx = await db.query<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE tablename IN ('checkout_sessions', 'console_sessions')`,
      );
      const names = idx.map((r) => r.indexname);
      expect(names).toContain('checkout_sessions_open_expiry');
      expect(names).not.toContain('console_sessions_key');
    } finally {
      await db.close();
    }
  });
});
