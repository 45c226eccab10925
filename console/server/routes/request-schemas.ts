import { z } from 'zod';
import {
  approvalTargetFields,
  MAX_BATCH_PAYOUTS,
  rejectionReasonField,
  updateAccountSettingsFields,
  updateApprovalPolicyFields,
  validateBankAccountFields,
} from '../../../lib/contract';
import {
  ACTION_NAMES,
  ACTIONS,
  API_KEY_PATTERN,
  checkoutFields,
  refundFields,
  enabledEventsField,
  idempotencyKeySchema,
  idField,
  payoutFields,
  payoutFilterFields,
  webhookUrlField,
  isCalendarDay,
  statementMonthField,
} from '../../../lib/contract';

/**
 * Bodies and queries of the console's routes. The payout and checkout fields are
 * the API's own schemas, so the browser form, this route and the API agree.
 */

export const signInSchema = z.strictObject({
  secretKey: z.string({ error: 'secretKey is required' }).trim().min(1, { error: 'Enter your API key.' }).max(300),
});

/** A secret (sk_test_) or restricted (rk_test_) key: anything else is refused without asking the API. */
export const looksLikeApiKey = (key: string) => API_KEY_PATTERN.test(key);

export const createPayoutSchema = z.strictObject({ ...payoutFields, idempotency_key: idempotencyKeySchema });

/** Approvals page: approve or reject the chosen payouts (or a whole batch) under one idempotency key. */
export const decidePayoutsSchema = z.strictObject({
  decision: z.enum(['approve', 'reject'], { error: 'decision must be approve or reject' }),
  ...approvalTargetFields,
  reason: rejectionReasonField.optional(),
  idempotency_key: idempotencyKeySchema,
});

export const updateApprovalPolicySchema = z.strictObject({ ...updateApprovalPolicyFields, idempotency_key: idempotencyKeySchema });

/** Settings page: the API's own fields (time_zone an IANA name, low_balance_threshold an integer or null), one idempotency key. */
export const updateAccountSettingsSchema = z.strictObject({ ...updateAccountSettingsFields, idempotency_key: idempotencyKeySchema });

export const validateBankAccountSchema = z.strictObject(validateBankAccountFields);

/** The batch page's rows, looked up before anything is sent. */
export const validateManyAccountsSchema = z.strictObject({
  accounts: z.array(z.strictObject(validateBankAccountFields)).min(1).max(MAX_BATCH_PAYOUTS),
});

export const createPayoutBatchSchema = z.strictObject({
  payouts: ACTIONS.create_payout_batch.request.shape.payouts,
  idempotency_key: idempotencyKeySchema,
});

export const payoutBatchIdParam = idField('pb');

export const createCheckoutSchema = z.strictObject({
  amount: checkoutFields.amount,
  description: checkoutFields.description,
  idempotency_key: idempotencyKeySchema,
});

const limit = z.coerce.number({ error: 'limit must be an integer' }).int({ error: 'limit must be an integer' }).min(1).max(100).optional();

export const listPayoutsQuery = z.strictObject({
  limit,
  starting_after: idField('po').optional(),
  ...payoutFilterFields,
});

/** The payouts page's filter as the summary route takes it (list_payouts' filter fields). */
export const summarizePayoutsQuery = z.strictObject(payoutFilterFields);

export const listCheckoutQuery = z.strictObject({
  limit,
  starting_after: idField('cs').optional(),
});

/** A refund from the checkout session page: the API's own fields (no amount: what is left). */
export const createRefundSchema = z.strictObject({
  amount: refundFields.amount,
  reason: refundFields.reason,
  idempotency_key: idempotencyKeySchema,
});

export const checkoutSessionIdParam = idField('cs');

export const payoutIdParam = idField('po');

export const payCheckoutSchema = z.strictObject({
  card_number: z.string({ error: 'card_number is required' }).max(40, { error: 'card_number is too long' }),
});

/** URLSearchParams as a plain object, empty values dropped. */
export const queryObject = (url: string) => Object.fromEntries([...new URL(url).searchParams].filter(([, v]) => v !== ''));

export const createWebhookEndpointSchema = z.strictObject({
  url: webhookUrlField,
  enabled_events: enabledEventsField.optional(),
  description: z.string().max(500, { error: 'description must be at most 500 characters' }).optional(),
  idempotency_key: idempotencyKeySchema,
});

/** What the console does to one endpoint: one route, one idempotency key per click. */
export const webhookEndpointOpSchema = z.strictObject({
  op: z.enum(['disable', 'enable', 'rotate', 'delete'], { error: 'op must be disable, enable, rotate or delete' }),
  idempotency_key: idempotencyKeySchema,
});

export const webhookEndpointIdParam = idField('we');
export const eventIdParam = idField('evt');

export const listDeliveriesQuery = z.strictObject({ limit, endpoint_id: idField('we') });

export const resendEventSchema = z.strictObject({ endpoint_id: idField('we'), idempotency_key: idempotencyKeySchema });

/** Keys, from the API keys page: the API's own field schemas. */
const keyRequest = ACTIONS.create_restricted_key.request.shape;
export const createRestrictedKeySchema = z.strictObject({
  name: keyRequest.name,
  permissions: keyRequest.permissions,
  max_payout_amount: keyRequest.max_payout_amount,
  idempotency_key: idempotencyKeySchema,
});
export const apiKeyIdParam = idField('key');
export const sandboxIdParam = idField('sbx');
export const sandboxOpSchema = z.strictObject({
  op: z.enum(['reset', 'delete'], { error: 'op must be reset or delete' }),
  idempotency_key: idempotencyKeySchema,
});
export const revokeApiKeySchema = z.strictObject({ idempotency_key: idempotencyKeySchema });
export const rollSecretKeySchema = z.strictObject({
  expires_in_seconds: ACTIONS.roll_secret_key.request.shape.expires_in_seconds.unwrap(),
  idempotency_key: idempotencyKeySchema,
});

/**
 * The Logs page's query (a plain GET form): what is not a valid filter is dropped,
 * so a hand-edited link shows the whole log rather than an error page.
 */
const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
export const logFiltersQuery = z.object({
  request_action: optional(z.enum(ACTION_NAMES)),
  status: optional(z.coerce.number().int().min(100).max(599)),
  idempotency_key: optional(z.string().trim().min(1).max(255)),
  key_id: optional(idField('key')),
  /** A payout's (or any object's) id: the calls that made or read it. */
  object_id: optional(z.string().trim().min(1).max(100)),
  /** Checked: the console's own reads too (by default the log hides them: origin api). */
  console: optional(z.literal('1')),
  after: optional(idField('req')),
});
export type LogFilters = z.infer<typeof logFiltersQuery>;

/** Reports page: the lines of a statement, for the page's own period: a month (YYYY-MM) or two days (YYYY-MM-DD), read in the merchant's zone. */
const calendarDay = (field: string) => z.string().refine(isCalendarDay, { error: `${field} must be a day as YYYY-MM-DD` });
export const statementLinesQuery = z.union(
  [z.strictObject({ month: statementMonthField }), z.strictObject({ from: calendarDay('from'), to: calendarDay('to') })],
  { error: 'Give month (YYYY-MM), or from and to (YYYY-MM-DD)' },
);
