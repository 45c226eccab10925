import type { BalanceTransaction, WebhookDelivery, WebhookEvent } from '../../lib/contract';

/** What the server reads for a payout's timeline (console/server/data/payout-timeline.ts) and the page renders. */
export interface PayoutTimelineData {
  /** The balance history's entry that returned a failed payout's amount (list_balance_transactions). */
  reversal: BalanceTransaction | null;
  /** The payout's events, oldest first, each with its webhook deliveries; null when the key may not read them. */
  events: { event: WebhookEvent; deliveries: WebhookDelivery[] }[] | null;
}

/** Money in and out of `available` since the start of a day in the merchant's zone (console/server/data/money-flow.ts), in the smallest unit. */
export interface MoneyFlow {
  /** The first day counted, YYYY-MM-DD in the merchant's zone (summarize_balance's days). */
  sinceDay: string;
  /** Sums of the positive and of the negative amounts (money out as a positive figure). */
  moneyIn: number;
  moneyOut: number;
  entries: number;
}
