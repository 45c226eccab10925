// The words the console shows for every status, reason and kind, one table per list of the contract. Keyed by
// the contract's own lists: a status added there without a label here fails type-checking. The code itself
// stays where a developer needs it (the detail pages, the CSV, the API).
import type {
  BalanceTransactionType,
  CheckoutSessionStatus,
  EventType,
  PayoutFailureCode,
  PayoutReturnCode,
  PayoutStatus,
  RefundFailureCode,
  RefundStatus,
  WebhookDeliveryStatus,
} from '@/lib/contract';

/** The look of a status badge: its colour and its drawn icon (status-icon.tsx). */
export type Tone = 'done' | 'bad' | 'waiting' | 'paused' | 'back' | 'neutral';

interface StatusLabel {
  label: string;
  tone: Tone;
}

export const PAYOUT_STATUS: Record<PayoutStatus, StatusLabel> = {
  pending: { label: 'Pending', tone: 'waiting' },
  paid: { label: 'Paid', tone: 'done' },
  failed: { label: 'Failed', tone: 'bad' },
  awaiting_approval: { label: 'Awaiting approval', tone: 'paused' },
  rejected: { label: 'Rejected', tone: 'bad' },
  expired: { label: 'Expired: not approved in time', tone: 'bad' },
  returned: { label: 'Returned', tone: 'back' },
};

/** Why the bank did not pay a payout (status failed). */
export const PAYOUT_FAILURE: Record<PayoutFailureCode, string> = {
  invalid_account: 'no such account',
  rejected_by_bank: 'the bank rejected it',
};

/** Why the bank sent a paid payout back (status returned). */
export const PAYOUT_RETURN: Record<PayoutReturnCode, string> = {
  account_closed: 'account closed',
  account_frozen: 'account frozen',
  returned_by_bank: 'sent back by the bank',
};

export const CHECKOUT_STATUS: Record<CheckoutSessionStatus, StatusLabel> = {
  open: { label: 'Open', tone: 'waiting' },
  complete: { label: 'Paid', tone: 'done' },
  expired: { label: 'Expired', tone: 'bad' },
  refunded: { label: 'Refunded', tone: 'back' },
};

export const REFUND_STATUS: Record<RefundStatus, StatusLabel> = {
  pending: { label: 'Pending', tone: 'waiting' },
  succeeded: { label: 'Refunded', tone: 'done' },
  failed: { label: 'Failed', tone: 'bad' },
};

export const REFUND_FAILURE: Record<RefundFailureCode, string> = {
  expired_or_canceled_card: 'the card was cancelled or expired',
};

export const DELIVERY_STATUS: Record<WebhookDeliveryStatus, StatusLabel> = {
  pending: { label: 'Sending', tone: 'waiting' },
  succeeded: { label: 'Delivered', tone: 'done' },
  failed: { label: 'Failed', tone: 'bad' },
};

export const PAYOUT_BATCH_STATUS: Record<'processing' | 'completed', StatusLabel> = {
  processing: { label: 'Processing', tone: 'waiting' },
  completed: { label: 'Completed', tone: 'done' },
};

/** Kinds of balance change, as the balance history, the statement and its CSV name them. */
export const BALANCE_KIND: Record<BalanceTransactionType, string> = {
  opening_balance: 'Opening balance',
  adjustment: 'Adjustment',
  payout: 'Payout',
  payout_reversal: 'Failed payout: money back',
  checkout_payment: 'Checkout payment',
  topup: 'Test top-up',
  refund: 'Refund',
  refund_reversal: 'Failed refund: money back',
  payout_return: 'Payout returned by the bank',
};

export const EVENT_TYPE: Record<EventType, string> = {
  'payout.created': 'Payout created',
  'payout.paid': 'Payout paid',
  'payout.failed': 'Payout failed',
  'checkout_session.completed': 'Checkout paid',
  'checkout_session.expired': 'Checkout expired',
  'refund.created': 'Refund created',
  'refund.succeeded': 'Refund succeeded',
  'refund.failed': 'Refund failed',
  'payout.awaiting_approval': 'Payout awaiting approval',
  'payout.approved': 'Payout approved',
  'payout.rejected': 'Payout rejected',
  'payout.expired': 'Payout expired unapproved',
  'statement.ready': 'Statement ready',
  'payout.returned': 'Payout returned',
  'balance.low': 'Balance low',
  'balance.recovered': 'Balance recovered',
};

const lookup = <K extends string, V>(table: Record<K, V>, key: string): V | undefined =>
  Object.hasOwn(table, key) ? table[key as K] : undefined;

/** A code the API may add later reads as words until it has a label of its own. */
const asWords = (code: string) => {
  const words = code.replaceAll(/[_.]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** A payout's status in words, with its reason when it failed or came back: "Failed: the bank rejected it", "Returned: account closed". */
export function payoutStatusLabel(p: { status: PayoutStatus; failure_code: string | null }): string {
  const status = PAYOUT_STATUS[p.status].label;
  if (!p.failure_code) return status;
  const reason = lookup(PAYOUT_FAILURE, p.failure_code) ?? lookup(PAYOUT_RETURN, p.failure_code) ?? asWords(p.failure_code).toLowerCase();
  return `${status}: ${reason}`;
}

export const balanceKindLabel = (type: string) => lookup(BALANCE_KIND, type) ?? asWords(type);
export const eventTypeLabel = (type: string) => lookup(EVENT_TYPE, type) ?? asWords(type);
export const refundFailureLabel = (code: string) => lookup(REFUND_FAILURE, code) ?? asWords(code).toLowerCase();

/** The codes with underscores that must never show raw in a table or heading (the check in tests/console). */
export const RAW_CODES: string[] = [
  ...Object.keys(PAYOUT_STATUS),
  ...Object.keys(PAYOUT_FAILURE),
  ...Object.keys(PAYOUT_RETURN),
  ...Object.keys(REFUND_FAILURE),
  ...Object.keys(BALANCE_KIND),
].filter((code) => code.includes('_'));
