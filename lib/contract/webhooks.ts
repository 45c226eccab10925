import { z } from 'zod';
import { createdBySchema } from './api-keys';
import { listOf } from './objects';

/**
 * Events and webhook endpoints (docs/webhooks.md): every change of state is an
 * event, written in the transaction of the change, and delivered to the
 * merchant's endpoints signed as the Standard Webhooks specification (v1) says.
 */
export const EVENT_TYPES = [
  'payout.created',
  'payout.paid',
  'payout.failed',
  'checkout_session.completed',
  'checkout_session.expired',
  // Refunds.
  'refund.created',
  'refund.succeeded',
  'refund.failed',
  // Payout approvals.
  'payout.awaiting_approval',
  'payout.approved',
  'payout.rejected',
  'payout.expired',
  // Statements: the month just ended in the merchant's zone, its figures in data.object.
  'statement.ready',
  // Returned payouts and low-balance alerts.
  'payout.returned',
  'balance.low',
  'balance.recovered',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const MAX_WEBHOOK_ENDPOINTS = 16;
/** The part of a receiver's answer a delivery keeps (for the merchant to see what went wrong). */
export const WEBHOOK_RESPONSE_EXCERPT_BYTES = 1024;

export const eventTypeField = z.enum(EVENT_TYPES, { error: `type must be one of ${EVENT_TYPES.join(', ')}` });

export const webhookUrlField = z
  .string({ error: 'url must be a string' })
  .max(2048, { error: 'url must be at most 2048 characters' })
  .pipe(z.url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' }));

/** A non-empty list of event types without duplicates, or ["*"] for all of them (the default). */
export const enabledEventsField = z
  .array(z.enum(['*', ...EVENT_TYPES], { error: `enabled_events must hold event types (${EVENT_TYPES.join(', ')}) or "*"` }), {
    error: 'enabled_events must be a list of event types',
  })
  .min(1, { error: 'enabled_events must not be empty' })
  .refine((list) => new Set(list).size === list.length, { error: 'enabled_events must not repeat a type' })
  .refine((list) => !list.includes('*') || list.length === 1, { error: 'enabled_events: "*" stands alone' });

export const eventSchema = z.object({
  object: z.literal('event'),
  id: z.string(),
  type: z.enum(EVENT_TYPES),
  created_at: z.iso.datetime({ offset: true }),
  /**
   * The payout, checkout session or refund as get_payout / get_checkout_session / get_refund returned it right after the change;
   * for balance.low and balance.recovered, the balance alert (balanceAlertSchema).
   */
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
  livemode: z.boolean(),
});

/** data.object of balance.low and balance.recovered: available and the threshold it crossed, at that moment. */
export const balanceAlertSchema = z.object({
  object: z.literal('balance'),
  available: z.int().nonnegative(),
  low_balance_threshold: z.int().nonnegative(),
  currency: z.string(),
});
export type BalanceAlert = z.infer<typeof balanceAlertSchema>;

export const webhookEndpointSchema = z.object({
  object: z.literal('webhook_endpoint'),
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  enabled_events: z.array(z.string()),
  disabled: z.boolean(),
  /** Why it was disabled: by the merchant, or because the receiver answered 410 Gone. */
  disabled_reason: z.string().nullable(),
  /** While a rotated-out secret still signs alongside the new one. */
  previous_secret_expires_at: z.iso.datetime({ offset: true }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
  created_by: createdBySchema,
  livemode: z.boolean(),
});

/** create_webhook_endpoint and rotate_webhook_secret: the only answers with the secret (null on an idempotent replay). */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({
  secret: z.string().nullable(),
});

export const webhookDeliverySchema = z.object({
  object: z.literal('webhook_delivery'),
  id: z.string(),
  event_id: z.string(),
  event_type: z.enum(EVENT_TYPES),
  endpoint_id: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.int().nonnegative(),
  last_attempt_at: z.iso.datetime({ offset: true }).nullable(),
  last_response_status: z.int().nullable(),
  last_response_body: z.string().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.iso.datetime({ offset: true }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
});

export const eventListSchema = listOf(eventSchema);
export const webhookEndpointListSchema = listOf(webhookEndpointSchema);
export const webhookDeliveryListSchema = listOf(webhookDeliverySchema);
export const deletedWebhookEndpointSchema = z.object({ object: z.literal('webhook_endpoint'), id: z.string(), deleted: z.literal(true) });

export type WebhookEvent = z.infer<typeof eventSchema>;
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
