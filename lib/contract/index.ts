/**
 * The wire contract of the payment API, in one place: what the core implements,
 * what the OpenAPI document and the SDK are generated from, what the console
 * parses. Pure zod and constants: no Node, no Next, no database.
 */
export * from './actions';
export * from './api-keys';
export * from './body';
export * from './errors';
export * from './fields';
export * from './objects';
export * from './permissions';
export * from './protocol';
export * from './requests';
export * from './statements';
export * from './zod-issue';
export * from './test-accounts';
export * from './webhooks';
export * from './balance-transactions';
export * from './refunds';
export * from './payout-approvals';
export * from './account-settings';
export * from './time-zone';
export * from './sandboxes';
