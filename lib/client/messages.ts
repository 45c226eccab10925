// One mapping from an error (the API's code and field, or a schema issue on a field) to a sentence
// for the merchant. Every console form uses it; the API's own code stays as a detail for support.
import { CHECKOUT_LIMITS, PAYOUT_LIMITS } from '../contract/fields';
import { formatMoney } from '../format';

export interface FieldIssue {
  /** zod's issue code, or the API's error code. */
  code: string;
  input?: unknown;
}

const idr = (n: number) => formatMoney(n, 'IDR');

/** What a field's problem means, in words, or null when the field has no sentence of its own. */
export function fieldMessage(field: string, issue: FieldIssue, limits: { min: number; max: number } = PAYOUT_LIMITS): string | null {
  const missing = issue.input === undefined || issue.input === '';
  switch (field) {
    case 'amount':
      if (missing) return 'Enter an amount.';
      if (issue.code === 'too_small') return `Amount must be at least ${idr(limits.min)}.`;
      if (issue.code === 'too_big') return `Amount must be at most ${idr(limits.max)}.`;
      return 'Amount must be a whole number of rupiah, without decimals.';
    case 'bank_code':
      return 'Choose the bank from the list.';
    case 'account_number':
      return missing ? 'Enter the account number.' : 'Account number must be 6 to 20 digits, with no letters.';
    case 'description':
      return issue.code === 'too_big' ? 'Description must be at most 500 characters.' : 'Description must not be empty.';
    case 'reference':
      return 'Reference must be 1 to 100 characters.';
    case 'q':
      return 'Search by a payout id (po_…) or the last four digits of an account.';
    case 'from':
    case 'to':
      return `“${field === 'from' ? 'From' : 'To'}” must be a date.`;
    case 'status':
      return 'Choose a status from the list.';
    default:
      return null;
  }
}

const BY_CODE: Record<string, string> = {
  insufficient_funds: 'Your available balance does not cover this amount.',
  unauthorized: 'Your session has ended. Sign in again.',
  invalid_secret_key: 'That API key was not accepted. Check it and try again.',
  permission_denied: 'This key is not allowed to do that. Ask the account owner for a key with that permission.',
  payout_limit_exceeded: 'This amount is above the payout limit of the key you signed in with.',
  rate_limited: 'Too many attempts. Wait a minute and try again.',
  card_declined: 'The card was declined. Try another card.',
  invalid_card: 'The card number is not valid. Check the 16 digits.',
  checkout_session_not_open: 'This checkout session has already been paid or has expired.',
  not_found: 'That could not be found. It may belong to another account.',
  idempotency_key_reused: 'This form was already used for a different request. Reload the page and try again.',
  payload_too_large: 'That is too large to send.',
  network_error: 'The answer was lost on the way. Nothing is sent twice: try again.',
  upstream_unavailable: 'The payment service did not answer. Nothing is sent twice: try again.',
  service_unavailable: 'The payment service is busy. Try again in a moment.',
  internal_error: 'Something went wrong on our side. Try again; nothing is sent twice.',
};

/** A failed request, for a person: the sentence and the API's code as a secondary detail. */
export function errorMessage(error: { code: string; param?: string; message: string }, limits?: { min: number; max: number }): { text: string; code: string } {
  // A field's own sentence is for a bad value; a refusal with a field (a key's payout limit) has its own.
  const byField = error.param && error.code === 'invalid_request' ? fieldMessage(error.param, { code: codeOfMessage(error.message), input: 'x' }, limits) : null;
  return { text: byField ?? BY_CODE[error.code] ?? error.message, code: error.code };
}

/** The API names a limit in its message ("amount must be at most 100000000"): read which. */
function codeOfMessage(message: string): string {
  if (/at least/.test(message)) return 'too_small';
  if (/at most/.test(message)) return 'too_big';
  return 'invalid';
}

export const LIMITS = { payout: PAYOUT_LIMITS, checkout: CHECKOUT_LIMITS };
