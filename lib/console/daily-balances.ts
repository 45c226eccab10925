import 'server-only';
import type { MerchantApi } from '../upstream/merchant-api';

const DAY = 86_400_000;

export interface DailyBalance {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  /** `available` at the end of that day (now, for today): the balance_after of its last ledger entry. */
  balance: number;
}

/**
 * The available balance at the end of each of the last `days` UTC days, exact however busy the
 * merchant: for each day, the newest balance transaction before its end (one `limit: 1` call per
 * day, all at once), whose balance_after is the balance then. No entry yet: 0.
 */
export async function endOfDayBalances(api: MerchantApi, days: number, now = Date.now()): Promise<DailyBalance[]> {
  const tomorrow = Math.floor(now / DAY) * DAY + DAY;
  const ends = Array.from({ length: days }, (_, i) => tomorrow - (days - 1 - i) * DAY);
  const lasts = await Promise.all(ends.map((end) => api.listBalanceTransactions({ limit: 1, created_lt: new Date(end).toISOString() })));
  return ends.map((end, i) => ({ day: new Date(end - DAY).toISOString().slice(0, 10), balance: lasts[i]!.data.data[0]?.balance_after ?? 0 }));
}
