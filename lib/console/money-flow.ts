import 'server-only';
import type { MoneyFlow } from '../client/console-views';
import type { BalanceTransaction } from '../contract';
import type { MerchantApi } from '../upstream/merchant-api';

/** Pages of 100 read for one total at most: past this the page says the figures are partial. */
const MAX_PAGES = 200;


/** Money in and out of `available` since `since`: every balance transaction, page after page, summed as integers. */
export async function moneyFlow(api: MerchantApi, since: Date): Promise<MoneyFlow> {
  const flow: MoneyFlow = { since: since.toISOString(), moneyIn: 0, moneyOut: 0, entries: 0, complete: true };
  let after: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages === MAX_PAGES) return { ...flow, complete: false };
    const page = (await api.listBalanceTransactions({ limit: 100, created_gte: flow.since, ...(after ? { starting_after: after } : {}) })).data;
    for (const t of page.data) {
      if (t.amount > 0) flow.moneyIn += t.amount;
      else flow.moneyOut -= t.amount;
    }
    flow.entries += page.data.length;
    if (!page.has_more) return flow;
    after = page.data.at(-1)!.id;
  }
}

/** The latest checkout payments: the balance history's checkout_payment entries (newest first, amount as credited). */
export async function latestPayments(api: MerchantApi, limit = 5): Promise<BalanceTransaction[]> {
  return (await api.listBalanceTransactions({ type: 'checkout_payment', limit })).data.data;
}
