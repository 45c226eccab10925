import 'server-only';
import { dayInZone, type BalanceTransaction } from '../../../lib/contract';
import type { MerchantApi } from '../upstream/merchant-api';

/** Lines a statement page shows at most (10 API pages); the CSV has every line, whatever the period's length. */
export const MAX_PAGE_LINES = 1000;
const PAGE = 100;

/**
 * The statement's lines [from, to), oldest first, each with the balance after it (the API's balance_after: the
 * running balance). The API lists newest first, so a period longer than MAX_PAGE_LINES shows its newest lines;
 * `complete` says whether the page holds every line.
 */
export async function statementLines(
  api: MerchantApi,
  from: string,
  to: string,
): Promise<{ lines: BalanceTransaction[]; complete: boolean }> {
  const newestFirst: BalanceTransaction[] = [];
  let after: string | undefined;
  let more = true;
  while (more && newestFirst.length < MAX_PAGE_LINES) {
    const page = (
      await api.listBalanceTransactions({ created_gte: from, created_lt: to, limit: PAGE, ...(after ? { starting_after: after } : {}) })
    ).data;
    newestFirst.push(...page.data);
    more = page.has_more;
    after = page.data.at(-1)?.id;
  }
  return { lines: newestFirst.reverse(), complete: !more };
}

/**
 * For an empty period: the month (in the zone) of the last balance change before it, or, if there is none before,
 * of the newest one at all; null for an account with no balance change yet.
 */
export async function lastActiveMonth(api: MerchantApi, before: string, zone: string): Promise<string | null> {
  const [earlier] = (await api.listBalanceTransactions({ created_lt: before, limit: 1 })).data.data;
  const last = earlier ?? (await api.listBalanceTransactions({ limit: 1 })).data.data[0];
  return last ? dayInZone(Date.parse(last.created_at), zone).slice(0, 7) : null;
}
