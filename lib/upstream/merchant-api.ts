import 'server-only';
import { balanceSchema, balanceTransactionListSchema, type BatchItem, checkoutSessionListSchema, checkoutSessionSchema, payoutBatchSchema, type PayoutInput, payoutListSchema, payoutSchema, type PayoutStatus } from '../contract';
import type { PaymentClient } from './payment-client';

export interface ListQuery {
  limit?: number;
  starting_after?: string;
}

/**
 * The payment API's actions, bound to one merchant's key. The key stays inside
 * this closure: callers get data, never the key.
 */
export function merchantApi(client: PaymentClient, secretKey: string) {
  return {
    getBalance: (opts: { clientAddress?: string } = {}) => client.call(secretKey, { action: 'get_balance' }, balanceSchema, opts),
    withdraw: (input: PayoutInput, idempotencyKey: string) =>
      client.call(secretKey, { action: 'withdraw', ...input }, payoutSchema, { idempotencyKey }),
    getPayout: (id: string) => client.call(secretKey, { action: 'get_payout', id }, payoutSchema),
    listPayouts: (query: ListQuery & { status?: PayoutStatus }) =>
      client.call(secretKey, { action: 'list_payouts', ...query }, payoutListSchema),
    createCheckoutSession: (input: { amount: number; description?: string }, idempotencyKey: string) =>
      client.call(secretKey, { action: 'create_checkout_session', ...input }, checkoutSessionSchema, { idempotencyKey }),
    createPayoutBatch: (payouts: BatchItem[], idempotencyKey: string) =>
      client.call(secretKey, { action: 'create_payout_batch', payouts }, payoutBatchSchema, { idempotencyKey }),
    getPayoutBatch: (id: string) => client.call(secretKey, { action: 'get_payout_batch', id }, payoutBatchSchema),
    listCheckoutSessions: (query: ListQuery) =>
      client.call(secretKey, { action: 'list_checkout_sessions', ...query }, checkoutSessionListSchema),
    getCheckoutSession: (id: string) => client.call(secretKey, { action: 'get_checkout_session', id }, checkoutSessionSchema),
    listBalanceTransactions: (query: ListQuery & { created_gte?: string }) =>
      client.call(secretKey, { action: 'list_balance_transactions', ...query }, balanceTransactionListSchema),
  };
}

export type MerchantApi = ReturnType<typeof merchantApi>;
