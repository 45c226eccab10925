export { PaymentsClient, type PaymentsClientOptions, type RequestOptions, type Result, type RetryInfo } from './client.js';
export { PaymentApiError, PaymentConnectionError, PaymentError } from './errors.js';
export * from './generated.js';
