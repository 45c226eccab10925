// console/browser/messages.ts: one mapping from an error to a sentence, for every form and every code.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { parseBatchCsv } from '../../console/browser/batch-csv';
import { errorMessage, fieldMessage } from '../../console/browser/messages';
import { ACTIONS, ERROR_CODE_NAMES } from '../../lib/contract';

// Intl puts a no-break space between the currency and the number.
const plain = (s: string) => s.replace(/\u00a0/g, ' ');

describe('one mapping from error to words', () => {
  it('names the limit in IDR', () => {
    expect(plain(fieldMessage('amount', { code: 'too_big', input: 1e9 })!)).toBe('Amount must be at most IDR 100,000,000.');
    expect(plain(errorMessage({ code: 'invalid_request', param: 'amount', message: 'amount must be at least 10000' }).text)).toBe(
      'Amount must be at least IDR 10,000.',
    );
  });
  it('keeps the API code as a detail, and the API text when it has no sentence', () => {
    expect(errorMessage({ code: 'insufficient_funds', message: 'x' })).toEqual({
      text: 'Your available balance does not cover this amount.',
      code: 'insufficient_funds',
    });
    expect(errorMessage({ code: 'something_new', message: 'raw' }).text).toBe('raw');
  });
  it('says how much is missing when the API refuses a payout for insufficient funds', () => {
    const refusal = errorMessage({
      code: 'insufficient_funds',
      param: 'amount',
      message: 'The available balance 30000 is lower than the amount 50000: 20000 is missing.',
    });
    expect([plain(refusal.text), refusal.code]).toEqual([
      'Your available balance does not cover this amount: IDR 20,000 is missing.',
      'insufficient_funds',
    ]);
  });
  it('words a refusal that names a field by its code, not as a bad value', () => {
    const limit = errorMessage({
      code: 'payout_limit_exceeded',
      param: 'amount',
      message: "amount 60000 is above this key's max_payout_amount of 50000.",
    });
    expect(limit.text).toBe('This amount is above the payout limit of the key you signed in with.');
    expect(errorMessage({ code: 'permission_denied', message: 'This restricted key lacks the permission payouts:write' }).text).toMatch(
      /not allowed/,
    );
  });
});

/** Each field the console's forms send, with values the API's own schema refuses. */
const BAD_INPUT: [keyof typeof ACTIONS, string, unknown[]][] = [
  ['withdraw', 'amount', [undefined, 12.5, 5, 100_000_001]],
  ['withdraw', 'bank_code', [undefined, '', 'NOPE']],
  ['withdraw', 'account_number', [undefined, '', '12ab']],
  ['create_checkout_session', 'amount', [undefined, 500, 1_000_000_001]],
  ['create_checkout_session', 'description', ['', 'x'.repeat(501)]],
  ['create_webhook_endpoint', 'url', ['', 'ftp://example.com', 'not a url', `https://example.com/${'x'.repeat(2048)}`]],
  ['create_webhook_endpoint', 'enabled_events', [[], ['payout.nope']]],
  ['create_restricted_key', 'name', ['', ' ', 'x'.repeat(101)]],
  ['create_restricted_key', 'permissions', [[], ['nope']]],
  ['create_restricted_key', 'max_payout_amount', [0, 1.5]],
  ['create_refund', 'amount', [0, 12.5, 1_000_000_001]],
  ['create_refund', 'reason', ['', ' ', 'x'.repeat(501)]],
];

describe('every field of every form has a sentence, never the API text', () => {
  it.each(BAD_INPUT.flatMap(([action, field, values]) => values.map((value) => [action, field, value] as const)))(
    '%s %s = %j',
    (action, field, value) => {
      const schema = (ACTIONS[action].request as unknown as z.ZodObject).shape[field] as z.ZodType;
      const parsed = schema.safeParse(value);
      expect(parsed.success, 'the contract refuses it').toBe(false);
      const sentence = fieldMessage(field, { code: parsed.error!.issues[0]!.code, input: value });
      expect(sentence).toMatch(/^[A-Z“].+\.$/);
      // The API's words name the field in snake_case; a person's do not.
      expect(sentence).not.toContain(field.includes('_') ? field : `${field} must`);
    },
  );
});

describe('every code of the error table has a sentence of its own', () => {
  it.each(ERROR_CODE_NAMES)('%s', (code) => {
    const { text } = errorMessage({ code, message: 'the API text' });
    expect(text).not.toBe('the API text');
    expect(text).toMatch(/^[A-Z].+\.$/);
  });
});

describe('a batch', () => {
  it('words an API refusal of one payout by its position', () => {
    expect(
      plain(
        errorMessage({
          code: 'invalid_request',
          param: 'payouts[3].amount',
          message: 'payouts[3].amount: amount must be at most 100000000',
        }).text,
      ),
    ).toBe('Payout 4: Amount must be at most IDR 100,000,000.');
  });
  it('explains each bad row of a CSV in the same words as the form', () => {
    const { rows } = parseBatchCsv(
      'amount,bank_code,account_number\nabc,BCA,1234567890\n20000,NOPE,1234567890\n20000,BCA,12ab\n5,BCA,1234567890',
    );
    expect(rows.map((r) => r.error && plain(r.error))).toEqual([
      'Amount must be a whole number of rupiah, without decimals.',
      'Bank code “NOPE” is not supported: use one of BCA, BNI, BRI, MANDIRI, PERMATA, CIMB, BSI, DANAMON.',
      'Account number must be 6 to 20 digits, with no letters.',
      'Amount must be at least IDR 10,000.',
    ]);
  });
});

describe('the hosted checkout page', () => {
  it('words a missing or malformed card number, and a session that closed meanwhile', () => {
    expect(fieldMessage('card_number', { code: 'too_small', input: '' })).toBe('Enter the card number.');
    expect(errorMessage({ code: 'invalid_request', param: 'card_number', message: 'card_number must be 16 digits' }).text).toBe(
      'The card number is not valid. Check the 16 digits.',
    );
    expect(errorMessage({ code: 'checkout_session_not_open', message: 'x' }).text).toMatch(/no longer open/);
  });
});
