export { test, expect, type PaymentsOptions, type TestClock, type WorkerSandbox } from './fixtures.ts';
export { toSeconds } from './duration.ts';
export { WebhookReceiver, type EventMatch } from './webhook-receiver.ts';
