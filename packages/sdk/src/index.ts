export { PaymentsClient, type PaymentsClientOptions, type RequestOptions, type Result, type RetryInfo } from './client.ts';
export { PaymentApiError, PaymentConnectionError, PaymentError } from './errors.ts';
export * from './generated.ts';
export { webhooks, WebhookVerificationError } from './webhooks.ts';
