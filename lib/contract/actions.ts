import { z } from 'zod';
import {
  amountField,
  batchItemSchema,
  checkoutFields,
  idField,
  listFields,
  MAX_BATCH_PAYOUTS,
  payoutFields,
  payoutFilterFields,
} from './fields';
import { PAYOUT_FAILURE_CODES, PAYOUT_RETURN_CODES } from './test-accounts';
import {
  balanceSummaryFields,
  balanceSummarySchema,
  balanceTransactionFilters,
  balanceTransactionListSchema,
} from './balance-transactions';
import {
  balanceSchema,
  checkoutSessionListSchema,
  checkoutSessionSchema,
  payoutBatchListSchema,
  payoutBatchSchema,
  payoutListSchema,
  payoutSchema,
  payoutSummarySchema,
} from './objects';
import type { ActionPermission } from './permissions';
import {
  approvalTargetFields,
  bankAccountValidationSchema,
  payoutApprovalPolicySchema,
  rejectionReasonField,
  updateApprovalPolicyFields,
  validateBankAccountFields,
} from './payout-approvals';
import { idempotentRequestSchema, listRequestsFields, requestLogListSchema } from './requests';
import {
  apiKeyListSchema,
  apiKeySchema,
  apiKeyWithSecretSchema,
  currentKeySchema,
  MAX_KEY_GRACE_SECONDS,
  permissionsField,
} from './api-keys';
import {
  deletedWebhookEndpointSchema,
  enabledEventsField,
  eventListSchema,
  eventSchema,
  eventTypeField,
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_DELIVERY_STATUSES,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  webhookUrlField,
} from './webhooks';
import { accountSettingsSchema, updateAccountSettingsFields } from './account-settings';
import { balanceAsOfFields, statementFields, statementSchema } from './statements';
import { refundFields, refundListFields, refundListSchema, refundSchema, simulateRefundFields } from './refunds';
import {
  advanceTestClockFields,
  createSandboxFields,
  deletedSandboxSchema,
  sandboxListSchema,
  sandboxSchema,
  sandboxWithKeySchema,
  testClockSchema,
} from './sandboxes';

/**
 * Every action of `POST /v1/index.php`: its request (the whole body, `action`
 * included; unknown fields are refused), its answer, and whether it changes
 * state (then it runs in one transaction and honours the idempotency header).
 * The core implements each entry (its action table: lib/payments/core.ts), the OpenAPI document
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

const command = <N extends string, S extends z.ZodRawShape>(name: N, shape: S) => z.strictObject({ action: z.literal(name), ...shape });

const define = <Req extends z.ZodType, Res extends z.ZodType>(c: ActionContract<Req, Res>) => c;

export const ACTIONS = {
  get_balance: define({
    request: command('get_balance', balanceAsOfFields),
    response: balanceSchema,
    mutates: false,
    permission: 'balance:read',
    summary: 'What can be paid out now, and what is already on its way out; with `as_of`, `available` as it stood at that instant.',
  }),
  get_statement: define({
    request: command('get_statement', statementFields),
    response: statementSchema,
    mutates: false,
    permission: 'balance:read',
    summary:
      "A statement for a month (`month`, in the merchant's zone) or a period (`from`, `to`): opening and closing balance and the totals of every balance-transaction type.",
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
    request: command('list_payouts', { ...listFields('po'), ...payoutFilterFields, batch_id: idField('pb').optional() }),
    response: payoutListSchema,
    mutates: false,
    permission: 'payouts:read',
    summary: 'Payouts, newest first, in cursor pages; `status`, `created_gte`, `created_lt`, `account_last4` and `batch_id` filter them.',
  }),
  summarize_payouts: define({
    request: command('summarize_payouts', payoutFilterFields),
    response: payoutSummarySchema,
    mutates: false,
    permission: 'payouts:read',
    summary: 'How many payouts the filter of list_payouts selects and their total amount, computed in one query.',
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
    summary:
      'Up to 1,000 payouts in one request and one transaction: all reserved against available together, or none (insufficient_funds).',
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
      outcome: z.enum(['paid', 'failed', 'returned'], { error: 'outcome must be paid, failed or returned' }),
      failure_code: z
        .enum([...PAYOUT_FAILURE_CODES, ...PAYOUT_RETURN_CODES], {
          error: `failure_code must be one of ${[...PAYOUT_FAILURE_CODES, ...PAYOUT_RETURN_CODES].join(', ')}`,
        })
        .optional(),
    }),
    response: payoutSchema,
    mutates: true,
    permission: 'payouts:write',
    summary:
      'Test mode: settles a pending payout now, as the settlement job would (same ledger entries); a settled one is 409 payout_not_pending. ' +
      'outcome returned: the bank sends a paid payout back (failure_code account_closed unless given), its amount returns to available; a payout not paid is 409 payout_not_paid.',
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
  // Events and webhook endpoints (docs/webhooks.md).
  list_events: define({
    request: command('list_events', {
      ...listFields('evt'),
      type: eventTypeField.optional(),
      object_id: z
        .string({ error: 'object_id must be a string' })
        .min(1, { error: 'object_id must not be empty' })
        .max(100, { error: 'object_id is too long' })
        .optional(),
    }),
    response: eventListSchema,
    mutates: false,
    permission: 'events:read',
    summary: 'Events, newest first, in cursor pages; `type` and `object_id` (the payout or session the event is about) filter them.',
  }),
  get_event: define({
    request: command('get_event', { id: idField('evt') }),
    response: eventSchema,
    mutates: false,
    permission: 'events:read',
    summary: 'One event of this merchant, with the object as it was right after the change.',
  }),
  create_webhook_endpoint: define({
    request: command('create_webhook_endpoint', {
      url: webhookUrlField,
      enabled_events: enabledEventsField.optional(),
      description: z
        .string({ error: 'description must be a string' })
        .max(500, { error: 'description must be at most 500 characters' })
        .optional(),
    }),
    response: webhookEndpointWithSecretSchema,
    mutates: true,
    permission: 'webhooks:write',
    summary: `An endpoint that receives events, signed with the secret in this answer (the only one that shows it). At most ${MAX_WEBHOOK_ENDPOINTS} per merchant.`,
  }),
  list_webhook_endpoints: define({
    request: command('list_webhook_endpoints', listFields('we')),
    response: webhookEndpointListSchema,
    mutates: false,
    permission: 'webhooks:write',
    summary: 'Webhook endpoints, newest first, in cursor pages; never a secret.',
  }),
  get_webhook_endpoint: define({
    request: command('get_webhook_endpoint', { id: idField('we') }),
    response: webhookEndpointSchema,
    mutates: false,
    permission: 'webhooks:write',
    summary: 'One webhook endpoint; never its secret.',
  }),
  update_webhook_endpoint: define({
    request: command('update_webhook_endpoint', {
      id: idField('we'),
      url: webhookUrlField.optional(),
      enabled_events: enabledEventsField.optional(),
      disabled: z.boolean({ error: 'disabled must be true or false' }).optional(),
    }),
    response: webhookEndpointSchema,
    mutates: true,
    permission: 'webhooks:write',
    summary: 'Changes the URL or the event types, or disables (true) or enables (false) the endpoint.',
  }),
  delete_webhook_endpoint: define({
    request: command('delete_webhook_endpoint', { id: idField('we') }),
    response: deletedWebhookEndpointSchema,
    mutates: true,
    permission: 'webhooks:write',
    summary: 'Deletes the endpoint and its deliveries still pending.',
  }),
  rotate_webhook_secret: define({
    request: command('rotate_webhook_secret', { id: idField('we') }),
    response: webhookEndpointWithSecretSchema,
    mutates: true,
    permission: 'webhooks:write',
    summary: 'A new signing secret, shown in this answer only; the old one signs alongside it for 24 hours.',
  }),
  list_webhook_deliveries: define({
    request: command('list_webhook_deliveries', {
      ...listFields('whd'),
      endpoint_id: idField('we').optional(),
      event_id: idField('evt').optional(),
      status: z.enum(WEBHOOK_DELIVERY_STATUSES, { error: `status must be ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` }).optional(),
    }),
    response: webhookDeliveryListSchema,
    mutates: false,
    permission: 'webhooks:write',
    summary: 'Deliveries of events to endpoints, newest first: status, attempts, last answer, next attempt.',
  }),
  resend_event: define({
    request: command('resend_event', { id: idField('evt'), endpoint_id: idField('we') }),
    response: webhookDeliverySchema,
    mutates: true,
    permission: 'webhooks:write',
    summary: 'Queues one more delivery of an event to an endpoint (even one that does not subscribe to its type).',
  }),
  // Keys (docs/api.md, "Keys"): only a secret key manages them.
  create_restricted_key: define({
    request: command('create_restricted_key', {
      name: z
        .string({ error: 'name must be a string' })
        .trim()
        .min(1, { error: 'name must not be empty' })
        .max(100, { error: 'name must be at most 100 characters' }),
      permissions: permissionsField,
      max_payout_amount: amountField(1, 9_007_199_254_740_991).optional(),
    }),
    response: apiKeyWithSecretSchema,
    mutates: true,
    permission: 'secret_key',
    summary: 'A restricted key (rk_test_…) with the permissions given; its secret is in this answer only (null on a replay).',
  }),
  get_current_key: define({
    request: command('get_current_key', {}),
    response: currentKeySchema,
    mutates: false,
    permission: 'any_key',
    summary:
      'The key making this request (type, name, permissions, payout limit; never its secret) and its merchant: what this key may do.',
  }),
  list_api_keys: define({
    request: command('list_api_keys', {}),
    response: apiKeyListSchema,
    mutates: false,
    permission: 'secret_key',
    summary: "The merchant's keys that work or will until their expiry: hints, permissions, last use; never a secret or a hash.",
  }),
  revoke_api_key: define({
    request: command('revoke_api_key', { id: idField('key') }),
    response: apiKeySchema,
    mutates: true,
    permission: 'secret_key',
    summary: 'Revokes a restricted key (or a rolled secret key still in its grace period): a 401 from its next request on.',
  }),
  roll_secret_key: define({
    request: command('roll_secret_key', {
      expires_in_seconds: z
        .int({ error: 'expires_in_seconds must be an integer' })
        .min(0, { error: 'expires_in_seconds must be at least 0' })
        .max(MAX_KEY_GRACE_SECONDS, { error: `expires_in_seconds must be at most ${MAX_KEY_GRACE_SECONDS}` })
        .optional(),
    }),
    response: apiKeyWithSecretSchema,
    mutates: true,
    permission: 'secret_key',
    summary: 'A new secret key, in this answer only; the old one works for expires_in_seconds more (0, the default: revoked now).',
  }),
  // Who did what (docs/api.md, "The request log").
  list_requests: define({
    request: command('list_requests', listRequestsFields),
    response: requestLogListSchema,
    mutates: false,
    permission: 'requests:read',
    summary:
      'The request log: every authenticated call, newest first, filtered by request_action, status, idempotency_key, key_id, object_id (the payout or other object it made or read) or origin (`api`, or `console` for the reads the console made to draw its pages); no bodies.',
  }),
  get_idempotent_request: define({
    request: command('get_idempotent_request', {
      idempotency_key: z
        .string({ error: 'idempotency_key must be a string' })
        .min(1, { error: 'idempotency_key is required' })
        .max(255, { error: 'idempotency_key is too long' }),
    }),
    response: idempotentRequestSchema,
    mutates: false,
    permission: 'requests:read',
    summary:
      'What the idempotency store holds for a key: the stored status and answer, when it was first seen, how often replayed, when it expires.',
  }),
  list_balance_transactions: define({
    request: command('list_balance_transactions', { ...listFields('txn'), ...balanceTransactionFilters }),
    response: balanceTransactionListSchema,
    mutates: false,
    permission: 'balance:read',
    summary:
      'The ledger: every change of available (signed amount, balance_after, type, source), newest first, in cursor pages; `type`, `created_gte`, `created_lt` filter it.',
  }),
  // Refunds of paid checkout sessions (docs/api.md, "Refunds").
  create_refund: define({
    request: command('create_refund', refundFields),
    response: refundSchema,
    mutates: true,
    permission: 'refunds:write',
    summary:
      'Refunds a paid (complete) checkout session, in full (no amount: what is left) or in part, out of available; pending until it settles. Beyond what is left: 422 refund_amount_exceeded; above available: 422 insufficient_funds.',
  }),
  get_refund: define({
    request: command('get_refund', { id: idField('re') }),
    response: refundSchema,
    mutates: false,
    permission: 'refunds:read',
    summary: 'One refund of this merchant.',
  }),
  list_refunds: define({
    request: command('list_refunds', refundListFields),
    response: refundListSchema,
    mutates: false,
    permission: 'refunds:read',
    summary: 'Refunds, newest first, in cursor pages; `checkout_session_id`, `status`, `created_gte` and `created_lt` filter them.',
  }),
  simulate_refund: define({
    request: command('simulate_refund', simulateRefundFields),
    response: refundSchema,
    mutates: true,
    permission: 'refunds:write',
    summary:
      'Test mode: settles a pending refund now, as the settlement job would (a failure returns the money to available); a settled one is 409 refund_not_pending.',
  }),
  summarize_balance: define({
    request: command('summarize_balance', balanceSummaryFields),
    response: balanceSummarySchema,
    mutates: false,
    permission: 'balance:read',
    summary:
      'The last `days` UTC days (today last): money in, money out, balance transactions and the closing balance of each, from per-day figures kept with every change.',
  }),
  // Payout approvals and account holders (docs/api.md, "Payout approvals").
  get_payout_approval_policy: define({
    request: command('get_payout_approval_policy', {}),
    response: payoutApprovalPolicySchema,
    mutates: false,
    permission: 'payouts:read',
    summary:
      'Which payouts wait for approval: none (the default), or those above above_amount made by restricted keys (for_keys "restricted") or by any key ("all").',
  }),
  update_payout_approval_policy: define({
    request: command('update_payout_approval_policy', updateApprovalPolicyFields),
    response: payoutApprovalPolicySchema,
    mutates: true,
    permission: 'secret_key',
    summary: 'Sets the approval policy (above_amount 0 and for_keys "restricted" unless given); payouts made from then on follow it.',
  }),
  approve_payouts: define({
    request: command('approve_payouts', approvalTargetFields),
    response: payoutListSchema,
    mutates: true,
    permission: 'payouts:approve',
    summary:
      "Approves payouts awaiting approval (ids, or every waiting payout of batch_id): each becomes pending and settles as usual. All or nothing; never the calling key's own payouts.",
  }),
  reject_payouts: define({
    request: command('reject_payouts', { ...approvalTargetFields, reason: rejectionReasonField }),
    response: payoutListSchema,
    mutates: true,
    permission: 'payouts:approve',
    summary:
      "Rejects payouts awaiting approval with a reason: each ends rejected and its amount returns to available. All or nothing; never the calling key's own payouts.",
  }),
  validate_bank_account: define({
    request: command('validate_bank_account', validateBankAccountFields),
    response: bankAccountValidationSchema,
    mutates: false,
    permission: 'payouts:write',
    summary:
      "Looks up the account's holder name at the bank before a payout (test mode: 4000000001 is invalid); the result is reused for 24 hours.",
  }),
  // The merchant's settings (docs/api.md, "Account settings").
  get_account_settings: define({
    request: command('get_account_settings', {}),
    response: accountSettingsSchema,
    mutates: false,
    permission: 'balance:read',
    summary: "The time zone the merchant's periods are read in (statements, summaries, the console) and its low-balance threshold.",
  }),
  update_account_settings: define({
    request: command('update_account_settings', updateAccountSettingsFields),
    response: accountSettingsSchema,
    mutates: true,
    permission: 'secret_key',
    summary:
      'Changes the time zone (an IANA name; Asia/Jakarta by default) and the low-balance threshold (an integer, or null for none); fields not given keep their value.',
  }),
  // Sandboxes (docs/testing-your-integration.md): isolated merchants of this one, for test runs.
  create_sandbox: define({
    request: command('create_sandbox', createSandboxFields),
    response: sandboxWithKeySchema,
    mutates: true,
    permission: 'sandboxes:write',
    summary:
      'An isolated merchant of this one (its own key, balance, payouts, events, endpoints, logs), for a test run; its sk_test_ key is in this answer only (null on a replay). Expires after expires_in_seconds (24 h by default, at most 7 days). A sandbox cannot create sandboxes.',
  }),
  list_sandboxes: define({
    request: command('list_sandboxes', listFields('sbx')),
    response: sandboxListSchema,
    mutates: false,
    permission: 'sandboxes:write',
    summary: "This merchant's live sandboxes, newest first, in cursor pages; never a key.",
  }),
  get_sandbox: define({
    request: command('get_sandbox', { id: idField('sbx') }),
    response: sandboxSchema,
    mutates: false,
    permission: 'sandboxes:write',
    summary: 'One live sandbox of this merchant; never its key.',
  }),
  delete_sandbox: define({
    request: command('delete_sandbox', { id: idField('sbx') }),
    response: deletedSandboxSchema,
    mutates: true,
    permission: 'sandboxes:write',
    summary: 'Deletes a sandbox: its key answers 401 from the next request on, and its data is purged by the server within seconds.',
  }),
  reset_sandbox: define({
    request: command('reset_sandbox', { id: idField('sbx') }),
    response: sandboxSchema,
    mutates: true,
    permission: 'sandboxes:write',
    summary:
      'Wipes a sandbox: its payouts, batches, checkout sessions, refunds, events, webhook endpoints and logs are gone and its balance is back to where it began; its id, keys and settings stay.',
  }),
  // A sandbox's test clock: called with the sandbox's own key.
  get_test_clock: define({
    request: command('get_test_clock', {}),
    response: testClockSchema,
    mutates: false,
    permission: 'any_key',
    summary: "The time on this sandbox's test clock (a sandbox made with test_clock: true); 400 for a merchant without one.",
  }),
  advance_test_clock: define({
    request: command('advance_test_clock', advanceTestClockFields),
    response: testClockSchema,
    mutates: true,
    permission: 'secret_key',
    summary:
      "Moves this sandbox's test clock forward by `seconds` or to `to` (never back, at most 31 days a call) and, before answering, runs what falls due on the way in time order: payouts settle, paid or failed or returned by the test accounts, approvals expire, refunds settle; their events and webhooks go out at once.",
  }),
} as const satisfies Record<string, ActionContract>;

export type ActionName = keyof typeof ACTIONS;
/** The permission each action needs, for the core's check, the docs table and the OpenAPI document. */
export const permissionOf = (name: ActionName): ActionPermission => ACTIONS[name].permission;
export const ACTION_NAMES = Object.keys(ACTIONS) as [ActionName, ...ActionName[]];
export type ActionRequest<N extends ActionName> = z.infer<(typeof ACTIONS)[N]['request']>;
export type ActionResponse<N extends ActionName> = z.infer<(typeof ACTIONS)[N]['response']>;
