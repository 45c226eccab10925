// The payment core, assembled: every action of the contract, by name, from the domains below, on the
// pipeline, which takes the table as an argument and names no action (docs/architecture.md).
import type { ActionTable } from './pipeline/action';
import type { CountingCore } from './pipeline/api-request';
import { createPaymentApi, type PaymentApiDeps } from './pipeline/payment-api';
import { getBalance } from './ledger/balance-actions';
import {
  createCheckoutSession,
  expireCheckoutSession,
  getCheckoutSession,
  listCheckoutSessions,
} from './checkout/checkout-session-actions';
import { createPayoutBatch, getPayoutBatch, listPayoutBatches } from './payouts/batch-actions';
import { getPayout, listPayouts, summarizePayouts, withdraw } from './payouts/payout-actions';
import { listBalanceTransactions } from './ledger/balance-transaction-actions';
import { createTestTopup, simulateCheckoutPayment, simulatePayout } from './test-mode/test-mode-actions';
import { createRestrictedKey, getCurrentKey, listApiKeys, revokeApiKey, rollSecretKey } from './keys/api-key-actions';
import { getEvent, listEvents } from './webhooks/event-actions';
import { getIdempotentRequest, listRequests } from './requests/request-actions';
import { listWebhookDeliveries, resendEvent } from './webhooks/delivery-actions';
import { approvePayoutsAction, getPayoutApprovalPolicy, rejectPayoutsAction, updatePayoutApprovalPolicy } from './payouts/approval-actions';
import { validateBankAccount } from './payouts/bank-account-actions';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from './webhooks/endpoint-actions';
import { getAccountSettings, updateAccountSettings } from './account/settings-actions';
import { getStatement, summarizeBalance } from './statements/statement-actions';
import { createRefundAction, getRefund, listRefunds, simulateRefund } from './refunds/refund-actions';
import { createSandbox, deleteSandbox, getSandbox, listSandboxes, resetSandbox } from './sandboxes/sandbox-actions';
import { advanceTestClock, getTestClock } from './test-clock/clock-actions';

/** The core's implementation of every action of the contract: a missing one does not compile. */
export const actions: ActionTable = {
  get_balance: getBalance,
  get_statement: getStatement,
  withdraw,
  get_payout: getPayout,
  list_payouts: listPayouts,
  summarize_payouts: summarizePayouts,
  create_payout_batch: createPayoutBatch,
  get_payout_batch: getPayoutBatch,
  list_payout_batches: listPayoutBatches,
  create_checkout_session: createCheckoutSession,
  get_checkout_session: getCheckoutSession,
  list_checkout_sessions: listCheckoutSessions,
  expire_checkout_session: expireCheckoutSession,
  simulate_payout: simulatePayout,
  simulate_checkout_payment: simulateCheckoutPayment,
  create_test_topup: createTestTopup,
  list_events: listEvents,
  get_event: getEvent,
  create_webhook_endpoint: createWebhookEndpoint,
  list_webhook_endpoints: listWebhookEndpoints,
  get_webhook_endpoint: getWebhookEndpoint,
  update_webhook_endpoint: updateWebhookEndpoint,
  delete_webhook_endpoint: deleteWebhookEndpoint,
  rotate_webhook_secret: rotateWebhookSecret,
  list_webhook_deliveries: listWebhookDeliveries,
  resend_event: resendEvent,
  create_restricted_key: createRestrictedKey,
  get_current_key: getCurrentKey,
  list_api_keys: listApiKeys,
  revoke_api_key: revokeApiKey,
  roll_secret_key: rollSecretKey,
  list_requests: listRequests,
  get_idempotent_request: getIdempotentRequest,
  list_balance_transactions: listBalanceTransactions,
  // Refunds.
  create_refund: createRefundAction,
  get_refund: getRefund,
  list_refunds: listRefunds,
  simulate_refund: simulateRefund,
  summarize_balance: summarizeBalance,
  // Payout approvals and account holders.
  get_payout_approval_policy: getPayoutApprovalPolicy,
  update_payout_approval_policy: updatePayoutApprovalPolicy,
  approve_payouts: approvePayoutsAction,
  reject_payouts: rejectPayoutsAction,
  validate_bank_account: validateBankAccount,
  get_account_settings: getAccountSettings,
  update_account_settings: updateAccountSettings,
  // Sandboxes.
  create_sandbox: createSandbox,
  list_sandboxes: listSandboxes,
  get_sandbox: getSandbox,
  delete_sandbox: deleteSandbox,
  reset_sandbox: resetSandbox,
  get_test_clock: getTestClock,
  advance_test_clock: advanceTestClock,
};

/** The payment core: the pipeline over every action (the composition roots and the tests build it here). */
export const createPaymentCore = (deps: PaymentApiDeps): CountingCore => createPaymentApi(actions, deps);
