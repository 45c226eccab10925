import type { Action } from './action';
import { getBalance } from './balance';
import {
  createCheckoutSession,
  expireCheckoutSession,
  getCheckoutSession,
  listCheckoutSessions,
} from './checkout-sessions';
import { getPayout, listPayouts, withdraw } from './payouts';

/** Every action of `POST /v1/index.php`, by the name a command gives in `action`. */
export const actions: Readonly<Record<string, Action>> = {
  get_balance: getBalance,
  withdraw,
  get_payout: getPayout,
  list_payouts: listPayouts,
  create_checkout_session: createCheckoutSession,
  get_checkout_session: getCheckoutSession,
  list_checkout_sessions: listCheckoutSessions,
  expire_checkout_session: expireCheckoutSession,
};

export const actionNames = Object.keys(actions);
