// One mapping from an error (the API's code and field, or a schema issue on a field) to a sentence
// for the merchant. Every console form uses it; the API's own code stays as a detail for support.
import type { ErrorCode } from '../../lib/contract/errors';
import { CHECKOUT_LIMITS, PAYOUT_LIMITS, TEST_BANK_CODES } from '../../lib/contract/fields';
import { formatMoney } from '../../lib/format';

export interface FieldIssue {
  /** zod's issue code, or the API's error code. */
  code: string;
  input?: unknown;
}

const idr = (n: number) => formatMoney(n, 'IDR');

/** What a field's problem means, in words, or null when the field has no sentence of its own. */
export function fieldMessage(field: string, issue: FieldIssue, limits: { min: number; max: number } = PAYOUT_LIMITS): string | null {
  // Without `input` (an API refusal names the field, not the value) nothing is known to be missing.
  const missing = 'input' in issue && (issue.input === undefined || issue.input === '');
  switch (field) {
    case 'amount':
      if (missing) return 'Enter an amount.';
      if (issue.code === 'too_small') return `Amount must be at least ${idr(limits.min)}.`;
      if (issue.code === 'too_big') return `Amount must be at most ${idr(limits.max)}.`;
      return 'Amount must be a whole number of rupiah, without decimals.';
    case 'bank_code':
      // A select sends a listed code or nothing; a file can hold any text.
      if (missing) return 'Choose the bank from the list.';
      return `Bank code ${'input' in issue ? `“${String(issue.input)}” ` : ''}is not supported: use one of ${TEST_BANK_CODES.join(', ')}.`;
    case 'account_number':
      return missing ? 'Enter the account number.' : 'Account number must be 6 to 20 digits, with no letters.';
    case 'description':
      return issue.code === 'too_big'
        ? 'Description must be at most 500 characters: shorten it.'
        : 'Write a description, or leave the field out.';
    case 'reason':
      return issue.code === 'too_big' ? 'Reason must be at most 500 characters: shorten it.' : 'Write a reason, or leave the field out.';
    case 'reference':
      return 'Reference must be 1 to 100 characters: shorten it, or leave it empty.';
    case 'q':
      return 'Search by a payout id (po_…) or the last four digits of an account.';
    case 'from':
    case 'to':
      return `Pick a day for “${field === 'from' ? 'From' : 'To'}” from the calendar, or leave it empty.`;
    case 'status':
      return 'Choose a status from the list.';
    case 'card_number':
      return missing ? 'Enter the card number.' : 'The card number is not valid. Check the 16 digits.';
    case 'url':
      if (missing) return 'Enter the address your receiver listens on, such as https://example.com/webhooks.';
      if (issue.code === 'too_big') return 'The address must be at most 2,048 characters.';
      return 'The address must be a full http:// or https:// URL, such as https://example.com/webhooks.';
    case 'enabled_events':
      return 'Choose at least one event, or all of them.';
    case 'name':
      return 'Give the key a name of 1 to 100 characters, such as “Support — Ana”.';
    case 'permissions':
      return 'Choose at least one permission.';
    case 'max_payout_amount':
      return 'The payout limit must be a whole number of rupiah, at least 1.';
    case 'time_zone':
      return 'Choose a time zone from the list, such as Asia/Jakarta.';
    case 'low_balance_threshold':
      return 'The low-balance threshold must be a whole number of rupiah, 0 or more, or empty for no alert.';
    default:
      return null;
  }
}

// Every code of the one error table has its sentence (the compiler checks), and the console's own.
const BY_CODE: Record<ErrorCode | 'network_error', string> = {
  invalid_json: 'The request could not be read. Reload the page and try again.',
  invalid_request: 'Something in the form is not valid. Check the fields and try again.',
  unknown_action: 'The console asked for something the payment service does not know. Reload the page.',
  invalid_idempotency_key: 'The request could not be matched to its retries. Reload the page and try again.',
  invalid_card: 'The card number is not valid. Check the 16 digits.',
  webhook_endpoint_limit: 'You already have 16 webhook endpoints. Delete one before adding another.',
  sandbox_limit: 'You have as many sandboxes as you may have at once. Delete one before making another.',
  unauthorized: 'Your session has ended. Sign in again.',
  invalid_secret_key: 'That API key was not accepted. Check it and try again.',
  card_declined: 'The card was declined. Try another card.',
  permission_denied: 'This key is not allowed to do that. Ask the account owner for a key with that permission.',
  payout_limit_exceeded: 'This amount is above the payout limit of the key you signed in with.',
  cross_origin_request: 'The request came from another site and was refused. Use the console itself.',
  not_found: 'That could not be found. It may belong to another account.',
  method_not_allowed: 'The console asked in a way the payment service does not accept. Reload the page.',
  idempotency_request_in_progress: 'The first attempt is still being processed. Wait a moment: it will not be sent twice.',
  checkout_session_not_open: 'This checkout session is no longer open: it has been paid or has expired.',
  payout_not_pending: 'This payout has already been paid or has failed.',
  payout_not_paid: 'Only a paid payout can be returned.',
  checkout_session_not_paid: 'This checkout session was never paid, so there is nothing to refund.',
  refund_not_pending: 'This refund has already succeeded or failed.',
  refund_amount_exceeded: 'This is more than what is left to refund of the payment.',
  payload_too_large: 'That is too large to send.',
  unsupported_media_type: 'The request could not be read. Reload the page and try again.',
  insufficient_funds: 'Your available balance does not cover this amount.',
  idempotency_key_reused: 'This form was already used for a different request. Reload the page and try again.',
  rate_limited: 'Too many attempts. Wait a minute and try again.',
  internal_error: 'Something went wrong on our side. Try again; nothing is sent twice.',
  upstream_invalid_response: 'The payment service sent an answer the console does not understand. Try again; nothing is sent twice.',
  service_unavailable: 'The payment service is busy. Try again in a moment.',
  upstream_unavailable: 'The payment service did not answer. Nothing is sent twice: try again.',
  self_approval_not_allowed: 'You made this payout, so another person must approve or reject it.',
  payout_not_awaiting_approval: 'A selected payout is no longer waiting for approval. Reload the list: nothing was changed.',
  account_name_mismatch: "The account holder's name does not match the name the bank holds for this account.",
  network_error: 'The answer was lost on the way. Nothing is sent twice: try again.',
};

/** A failed request, for a person: the sentence and the API's code as a secondary detail. */
export function errorMessage(
  error: { code: string; param?: string; message: string },
  limits?: { min: number; max: number },
): { text: string; code: string } {
  const code = error.code as keyof typeof BY_CODE;
  // A field's own sentence is for a bad value; a refusal with a field (a key's payout limit) has its own.
  if (error.param && error.code === 'invalid_request') {
    // `payouts[3].amount` (a batch): the field's sentence, for the payout at that position.
    const position = /\[(\d+)\]\.?([a-z_]+)$/.exec(error.param);
    const field = position ? position[2]! : error.param;
    const sentence = fieldMessage(field, { code: codeOfMessage(error.message) }, limits);
    // A field without a sentence keeps the API's message, which names it.
    return { text: sentence ? (position ? `Payout ${Number(position[1]) + 1}: ${sentence}` : sentence) : error.message, code: error.code };
  }
  // The API says how much is missing (lib/payments/payouts/withdrawal.ts): the merchant sees it in rupiah.
  const missing = error.code === 'insufficient_funds' ? /: (\d+) is missing/.exec(error.message) : null;
  if (missing) return { text: `${BY_CODE.insufficient_funds.slice(0, -1)}: ${idr(Number(missing[1]))} is missing.`, code: error.code };
  return { text: BY_CODE[code] ?? error.message, code: error.code };
}

/** The API names a limit in its message ("amount must be at most 100000000"): read which. */
function codeOfMessage(message: string): string {
  if (/at least/.test(message)) return 'too_small';
  if (/at most/.test(message)) return 'too_big';
  return 'invalid';
}

export const LIMITS = { payout: PAYOUT_LIMITS, checkout: CHECKOUT_LIMITS };
