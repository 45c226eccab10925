import 'server-only';
import type { MoneyFlow } from '../../browser/console-views';
import type { BalanceTransaction } from '../../../lib/contract';
import type { MerchantApi } from '../upstream/merchant-api';

/**
 * Money in and out of `available` over the last `days` days of the merchant's zone (today included), summed as integers
 * from the per-day figures of summarize_balance: exact, and one call however busy the merchant.
 */
export async function moneyFlow(api: MerchantApi, days = 7): Promise<MoneyFlow> {
  const summary = (await api.summarizeBalance(days)).data;
  const flow: MoneyFlow = { sinceDay: summary.days[0]!.day, moneyIn: 0, moneyOut: 0, entries: 0 };
  for (const d of summary.days) {
    flow.moneyIn += d.money_in;
    flow.moneyOut += d.money_out;
    flow.entries += d.entries;
  }
  return flow;
}

/** The latest checkout payments: the balance history's checkout_payment entries (newest first, amount as credited). */
export async function latestPayments(api: MerchantApi, limit = 5): Promise<BalanceTransaction[]> {
  return (await api.listBalanceTransactions({ type: 'checkout_payment', limit })).data.data;
}
