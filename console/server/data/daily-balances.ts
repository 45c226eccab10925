import 'server-only';
import type { MerchantApi } from '../upstream/merchant-api';

export interface DailyBalance {
  /** The day in the merchant's zone, YYYY-MM-DD (summarize_balance's days). */
  day: string;
  /** `available` at the end of that day (now, for today). */
  balance: number;
}

/**
 * The available balance at the end of each of the last `days` days of the merchant's zone, exact however busy the
 * merchant: one summarize_balance call, which reads per-day figures kept with every ledger entry
 * (a few rows, whatever the history). No entry yet: 0.
 */
export async function endOfDayBalances(api: MerchantApi, days: number): Promise<DailyBalance[]> {
  const summary = (await api.summarizeBalance(days)).data;
  return summary.days.map((d) => ({ day: d.day, balance: d.closing_balance }));
}
