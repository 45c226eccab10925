import { implement } from '../pipeline/action';

/** get_balance: what can be paid out now, and what is already on its way out. */
export const getBalance = implement('get_balance', async ({ db, merchant }) => {
  // pending_payouts is kept with the balance (lib/payments/ledger/ledger.ts): one row, whatever the backlog.
  const [row] = await db.query<{
    currency: string;
    available: number;
    pending_payouts: number;
    pending_refunds: number;
    awaiting_approval: number;
  }>(`SELECT currency, available, pending_payouts, pending_refunds, awaiting_approval FROM balances WHERE merchant_id = $1`, [merchant.id]);
  if (!row) throw new Error(`merchant ${merchant.id} has no balance row`);
  return {
    object: 'balance',
    merchant: { id: merchant.id, name: merchant.name },
    currency: row.currency,
    available: row.available,
    pending_payouts: row.pending_payouts,
    pending_refunds: row.pending_refunds,
    awaiting_approval: row.awaiting_approval,
    livemode: false,
  };
});
