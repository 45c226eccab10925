import { z } from 'zod';
import { defineAction } from './action';

/** get_balance: what can be paid out now, and what is already on its way out. */
export const getBalance = defineAction({
  schema: z.strictObject({ action: z.literal('get_balance') }),
  mutates: false,
  async run({ db, merchant }) {
    const [row] = await db.query<{ currency: string; available: number; pending: number }>(
      `SELECT b.currency, b.available,
              (SELECT COALESCE(SUM(p.amount), 0) FROM payouts p WHERE p.merchant_id = b.merchant_id AND p.status = 'pending') AS pending
       FROM balances b WHERE b.merchant_id = $1`,
      [merchant.id],
    );
    if (!row) throw new Error(`merchant ${merchant.id} has no balance row`);
    return {
      object: 'balance',
      merchant: { id: merchant.id, name: merchant.name },
      currency: row.currency,
      available: row.available,
      pending_payouts: row.pending,
      livemode: false,
    };
  },
});
