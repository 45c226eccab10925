import 'server-only';
import type { ActionRequest, BatchItem, PayoutInput } from '../../../lib/contract';
import type { PaymentClient } from './payment-client';

/** The filters list_payouts and summarize_payouts share. */
export type PayoutFilter = Omit<ActionRequest<'summarize_payouts'>, 'action'>;

export interface ListQuery {
  limit?: number;
  starting_after?: string;
}

/**
 * The payment API's actions, bound to one merchant's key. The key stays inside
 * this closure: callers get data, never the key.
 */
export function merchantApi(client: PaymentClient, secretKey: string) {
  return {
    /** Which key this is and what it may do (any working key may ask). */
    getCurrentKey: (opts: { clientAddress?: string } = {}) => client.call(secretKey, 'get_current_key', {}, opts),
    getBalance: (opts: { clientAddress?: string } = {}) => client.call(secretKey, 'get_balance', {}, opts),
    /** `available` as it stood at an instant (ISO). */
    getBalanceAsOf: (asOf: string) => client.call(secretKey, 'get_balance', { as_of: asOf }),
    withdraw: (input: PayoutInput, idempotencyKey: string) => client.call(secretKey, 'withdraw', input, { idempotencyKey }),
    getPayout: (id: string) => client.call(secretKey, 'get_payout', { id }),
    listPayouts: (query: ListQuery & PayoutFilter & { batch_id?: string }) => client.call(secretKey, 'list_payouts', query),
    summarizePayouts: (filter: PayoutFilter) => client.call(secretKey, 'summarize_payouts', filter),
    createCheckoutSession: (input: { amount: number; description?: string }, idempotencyKey: string) =>
      client.call(secretKey, 'create_checkout_session', input, { idempotencyKey }),
    createPayoutBatch: (payouts: BatchItem[], idempotencyKey: string) =>
      client.call(secretKey, 'create_payout_batch', { payouts }, { idempotencyKey }),
    getPayoutBatch: (id: string) => client.call(secretKey, 'get_payout_batch', { id }),
    listPayoutBatches: (query: ListQuery) => client.call(secretKey, 'list_payout_batches', query),
    listCheckoutSessions: (query: ListQuery) => client.call(secretKey, 'list_checkout_sessions', query),
    // Webhooks: the secret of create and rotate is shown once to the merchant, never kept by the console.
    listWebhookEndpoints: () => client.call(secretKey, 'list_webhook_endpoints', { limit: 100 }),
    createWebhookEndpoint: (input: Omit<ActionRequest<'create_webhook_endpoint'>, 'action'>, idempotencyKey: string) =>
      client.call(secretKey, 'create_webhook_endpoint', input, { idempotencyKey }),
    updateWebhookEndpoint: (input: { id: string; disabled: boolean }, idempotencyKey: string) =>
      client.call(secretKey, 'update_webhook_endpoint', input, { idempotencyKey }),
    deleteWebhookEndpoint: (id: string, idempotencyKey: string) =>
      client.call(secretKey, 'delete_webhook_endpoint', { id }, { idempotencyKey }),
    rotateWebhookSecret: (id: string, idempotencyKey: string) =>
      client.call(secretKey, 'rotate_webhook_secret', { id }, { idempotencyKey }),
    listWebhookDeliveries: (query: ListQuery & { endpoint_id?: string; event_id?: string }) =>
      client.call(secretKey, 'list_webhook_deliveries', query),
    resendEvent: (input: { id: string; endpoint_id: string }, idempotencyKey: string) =>
      client.call(secretKey, 'resend_event', input, { idempotencyKey }),
    getEvent: (id: string) => client.call(secretKey, 'get_event', { id }),
    listEvents: (query: ListQuery & { object_id?: string }) => client.call(secretKey, 'list_events', query),
    getCheckoutSession: (id: string) => client.call(secretKey, 'get_checkout_session', { id }),
    listBalanceTransactions: (query: Omit<ActionRequest<'list_balance_transactions'>, 'action'>) =>
      client.call(secretKey, 'list_balance_transactions', query),
    summarizeBalance: (days: number) => client.call(secretKey, 'summarize_balance', { days }),
    getStatement: (input: Omit<ActionRequest<'get_statement'>, 'action'>) => client.call(secretKey, 'get_statement', input),
    // Keys and the request log (a secret key manages keys; requests:read reads the log).
    listApiKeys: () => client.call(secretKey, 'list_api_keys', {}),
    createRestrictedKey: (input: Omit<ActionRequest<'create_restricted_key'>, 'action'>, idempotencyKey: string) =>
      client.call(secretKey, 'create_restricted_key', input, { idempotencyKey }),
    revokeApiKey: (id: string, idempotencyKey: string) => client.call(secretKey, 'revoke_api_key', { id }, { idempotencyKey }),
    rollSecretKey: (expiresInSeconds: number, idempotencyKey: string) =>
      client.call(secretKey, 'roll_secret_key', { expires_in_seconds: expiresInSeconds }, { idempotencyKey }),
    listRequests: (query: Omit<ActionRequest<'list_requests'>, 'action'>) => client.call(secretKey, 'list_requests', query),
    getIdempotentRequest: (idempotencyKey: string) => client.call(secretKey, 'get_idempotent_request', { idempotency_key: idempotencyKey }),
    // Refunds of paid checkout sessions (refunds:write to create, refunds:read to read).
    createRefund: (input: Omit<ActionRequest<'create_refund'>, 'action'>, idempotencyKey: string) =>
      client.call(secretKey, 'create_refund', input, { idempotencyKey }),
    getRefund: (id: string) => client.call(secretKey, 'get_refund', { id }),
    listRefunds: (query: Omit<ActionRequest<'list_refunds'>, 'action'>) => client.call(secretKey, 'list_refunds', query),
    // Payout approvals and account holders.
    getApprovalPolicy: () => client.call(secretKey, 'get_payout_approval_policy', {}),
    updateApprovalPolicy: (input: Omit<ActionRequest<'update_payout_approval_policy'>, 'action'>, idempotencyKey: string) =>
      client.call(secretKey, 'update_payout_approval_policy', input, { idempotencyKey }),
    approvePayouts: (input: Omit<ActionRequest<'approve_payouts'>, 'action'>, idempotencyKey: string) =>
      client.call(secretKey, 'approve_payouts', input, { idempotencyKey }),
    rejectPayouts: (input: Omit<ActionRequest<'reject_payouts'>, 'action'>, idempotencyKey: string) =>
      client.call(secretKey, 'reject_payouts', input, { idempotencyKey }),
    validateBankAccount: (input: Omit<ActionRequest<'validate_bank_account'>, 'action'>) =>
      client.call(secretKey, 'validate_bank_account', input),
    // Sandboxes of this merchant (sandboxes:write): listed, reset and deleted; the console never holds their keys.
    listSandboxes: (query: ListQuery) => client.call(secretKey, 'list_sandboxes', query),
    resetSandbox: (id: string, idempotencyKey: string) => client.call(secretKey, 'reset_sandbox', { id }, { idempotencyKey }),
    deleteSandbox: (id: string, idempotencyKey: string) => client.call(secretKey, 'delete_sandbox', { id }, { idempotencyKey }),
    // The merchant's settings: its time zone and low-balance threshold (the secret key changes them).
    getAccountSettings: () => client.call(secretKey, 'get_account_settings', {}),
    updateAccountSettings: (input: Omit<ActionRequest<'update_account_settings'>, 'action'>, idempotencyKey: string) =>
      client.call(secretKey, 'update_account_settings', input, { idempotencyKey }),
  };
}

export type MerchantApi = ReturnType<typeof merchantApi>;
