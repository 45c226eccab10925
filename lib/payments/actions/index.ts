import type { ActionName } from '../../contract';
import type { Action } from './action';
import { getBalance } from './balance';
import {
  createCheckoutSession,
  expireCheckoutSession,
  getCheckoutSession,
  listCheckoutSessions,
} from './checkout-sessions';
import { createPayoutBatch, getPayoutBatch, listPayoutBatches } from './payout-batches';
import { getPayout, listPayouts, withdraw } from './payouts';
import { listBalanceTransactions } from './balance-transactions';
import { createTestTopup, simulateCheckoutPayment, simulatePayout } from './test-helpers';

/** The core's implementation of every action of the contract: a missing one does not compile. */
export const actions: { readonly [N in ActionName]: Action<N> } = {
  get_balance: getBalance,
  withdraw,
  get_payout: getPayout,
  list_payouts: listPayouts,
  create_payout_batch: createPayoutBatch,
  get_payout_batch: getPayoutBatch,
  list_payout_batches: listPayoutBatches,
  create_checkout_session: createCheckoutSession,
  get_checkout_session: getCheckoutSession,
  list_checkout_sessions: listCheckoutSessions,
  expire_checkout_session: expireCheckoutSession,
  simulate_payout: simulatePayout,
  simulate_checkout_payment: simulateCheckoutPayment,
  create_test_topup: createTestTopup,
  list_balance_transactions: listBalanceTransactions,
};
