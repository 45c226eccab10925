import type { Queryable } from '../../db/types';
import { balanceBefore, rangeFigures } from '../ledger/ledger-figures';
import { addDays, dayInZone, startOfDayInZone } from '../../contract';

export interface BalanceDay {
  day: string;
  money_in: number;
  money_out: number;
  entries: number;
  /** `available` at the day's end; for a day without entries, the balance carried into it. */
  closing_balance: number;
}

/**
 * The merchant's last `days` days in its zone up to today, oldest first: money in and out, entries and
 * the closing balance. The figures of each day in one statement, the balance carried into the first
 * day in one index lookup; never the history.
 */
export async function balanceDays(
  db: Queryable,
  merchant: { id: string; timeZone: string },
  days: number,
  now = Date.now(),
): Promise<BalanceDay[]> {
  const today = dayInZone(now, merchant.timeZone);
  const dates = Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
  const start = (day: string) => startOfDayInZone(day, merchant.timeZone).getTime();
  const ranges = dates.map((d) => ({ from: start(d), to: start(addDays(d, 1)) }));
  const [opening, figures] = await Promise.all([balanceBefore(db, merchant.id, ranges[0]!.from), rangeFigures(db, merchant.id, ranges)]);
  let balance = opening;
  return dates.map((d, i) => {
    let moneyIn = 0;
    let moneyOut = 0;
    let entries = 0;
    for (const f of figures[i]!.values()) {
      moneyIn += f.money_in;
      moneyOut += f.money_out;
      entries += f.count;
    }
    balance += moneyIn - moneyOut;
    return { day: d, money_in: moneyIn, money_out: moneyOut, entries, closing_balance: balance };
  });
}
