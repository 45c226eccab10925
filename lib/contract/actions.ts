import { z } from 'zod';
import { amountField, batchItemSchema, checkoutFields, idField, listFields, MAX_BATCH_PAYOUTS, payoutFields, payoutStatusField } from './fields';
import { PAYOUT_FAILURE_CODES } from './test-accounts';
import { balanceTransactionFilters, balanceTransactionListSchema } from './balance-transactions';
import {
  balanceSchema,
  checkoutSessionListSchema,
  checkoutSessionSchema,
  payoutBatchListSchema,
  payoutBatchSchema,
  payoutListSchema,
  payoutSchema,
} from './objects';
import type { ActionPermission } from './permissions';

/**
 * Every action of `POST /v1/index.php`: its request (the whole body, `action`
 * included; unknown fields are refused), its answer, and whether it changes
 * state (then it runs in one transaction and honours the idempotency header).
 * The core implements each entry (lib/payments/actions), the OpenAPI document
 * and the SDK are generated from this table.
 */
export interface ActionContract<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  request: Req;
  response: Res;
  mutates: boolean;
  /** The one permission a restricted key needs for this action; required, so a new action without one does not compile. */
  permission: ActionPermission;
  summary: string;
}

const command = <N extends string, S extends z.ZodRawShape>(name: N, shape: S) =>
  z.strictObject({ action: z.literal(name), ...shape });

const define = <Req extends z.ZodType, Res extends z.ZodType>(c: ActionContract<Req, Res>) => c;

export const ACTIONS = {
  get_balance: define({
    request: command('get_balance', {}),
    response: balanceSchema,
    mutates: false,
    permission: 'balance:read',
    summary: 'What can be paid out now, and what is already on its way out.',
  }),
  withdraw: define({
    request: command('withdraw', payoutFields),
    response: payoutSchema,
    mutates: true,
    permission: 'payouts:write',
    summary: 'Moves the amount from available to pending payouts and creates a pending payout that settles in the background.',
  }),
  get_payout: define({
    request: command('get_payout', { id: idField('po') }),
    response: payoutSchema,
    mutates: false,
    permission: 'payouts:read',
    summary: 'One payout of this merchant.',
  }),
  list_payouts: define({
    request: command('list_payouts', { ...listFields('po'), status: payoutStatusField.optional(), batch_id: idField('pb').optional() }),
    response: payoutListSchema,
    mutates: false,
    permission: 'payouts:read',
    summary: 'Payouts, newest first, in cursor pages; `status` and `batch_id` filter them.',
  }),
  create_payout_batch: define({
    request: command('create_payout_batch', {
      payouts: z
        .array(batchItemSchema, { error: 'payouts must be a list of payouts' })
        .min(1, { error: 'payouts must hold at least 1 payout' })
        .max(MAX_BATCH_PAYOUTS, { error: `payouts must hold at most ${MAX_BATCH_PAYOUTS} payouts` }),
    }),
    response: payoutBatchSchema,
    mutates: true,
    permission: 'payouts:write',
    summary: 'Up to 1,000 payouts in one request and one transaction: all reserved against available together, or none (insufficient_funds).',
  }),
  get_payout_batch: define({
    request: command('get_payout_batch', { id: idField('pb') }),
    response: payoutBatchSchema,
    mutates: false,
    permission: 'payouts:read',
    summary: 'One payout batch, with its payouts counted by status.',
  }),
  list_payout_batches: define({
    request: command('list_payout_batches', listFields('pb')),
    response: payoutBatchListSchema,
    mutates: false,
    permission: 'payouts:read',
    summary: 'Payout batches, newest first, in cursor pages.',
  }),
  create_checkout_session: define({
    request: command('create_checkout_session', checkoutFields),
    response: checkoutSessionSchema,
    mutates: true,
    permission: 'checkout_sessions:write',
    summary: 'A hosted payment link for an amount; the customer pays it on the hosted checkout page.',
  }),
  get_checkout_session: define({
    request: command('get_checkout_session', { id: idField('cs') }),
    response: checkoutSessionSchema,
    mutates: false,
    permission: 'checkout_sessions:read',
    summary: 'One checkout session of this merchant.',
  }),
  list_checkout_sessions: define({
    request: command('list_checkout_sessions', listFields('cs')),
    response: checkoutSessionListSchema,
    mutates: false,
    permission: 'checkout_sessions:read',
    summary: 'Checkout sessions, newest first, in cursor pages.',
  }),
  expire_checkout_session: define({
    request: command('expire_checkout_session', { id: idField('cs') }),
    response: checkoutSessionSchema,
    mutates: true,
    permission: 'checkout_sessions:write',
    summary: 'Expires an open session at once; a complete one cannot be expired (409).',
  }),
  // Test-mode helpers (every key here is a test key; a live mode would refuse these names).
  simulate_payout: define({
    request: command('simulate_payout', {
      id: idField('po'),
      outcome: z.enum(['paid', 'failed'], { error: 'outcome must be paid or failed' }),
      failure_code: z.enum(PAYOUT_FAILURE_CODES, { error: `failure_code must be one of ${PAYOUT_FAILURE_CODES.join(', ')}` }).optional(),
    }),
    response: payoutSchema,
    mutates: true,
    permission: 'payouts:write',
    summary: 'Test mode: settles a pending payout now, as the settlement job would (same ledger entries); a settled one is 409 payout_not_pending.',
  }),
  simulate_checkout_payment: define({
    request: command('simulate_checkout_payment', {
      id: idField('cs'),
      card_number: z.string({ error: 'card_number must be a string' }).max(40, { error: 'card_number is too long' }).optional(),
    }),
    response: checkoutSessionSchema,
    mutates: true,
    permission: 'checkout_sessions:write',
    summary: 'Test mode: pays an open checkout session as the hosted page would (4242 4242 4242 4242 unless another card is given).',
  }),
  create_test_topup: define({
    request: command('create_test_topup', { amount: amountField(1, 10_000_000_000) }),
    response: balanceSchema,
    mutates: true,
    permission: 'secret_key',
    summary: 'Test mode: adds to available, with a ledger entry of kind topup, so a long-running suite never runs dry.',
  }),
  list_balance_transactions: define({
    request: command('list_balance_transactions', { ...listFields('txn'), ...balanceTransactionFilters }),
    response: balanceTransactionListSchema,
    mutates: false,
    permission: 'balance:read',
    summary: 'The ledger: every change of available (signed amount, balance_after, type, source), newest first, in cursor pages; `type`, `created_gte`, `created_lt` filter it.',
  }),
} as const satisfies Record<string, ActionContract>;

export type ActionName = keyof typeof ACTIONS;
/** The permission each action needs, for the core's check, the docs table and the OpenAPI document. */
export const permissionOf = (name: ActionName): ActionPermission => ACTIONS[name].permission;
export const ACTION_NAMES = Object.keys(ACTIONS) as [ActionName, ...ActionName[]];
export type ActionRequest<N extends ActionName> = z.infer<(typeof ACTIONS)[N]['request']>;
export type ActionResponse<N extends ActionName> = z.infer<(typeof ACTIONS)[N]['response']>;
