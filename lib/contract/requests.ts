import { z } from 'zod';
import { idField } from './fields';

/** The request log (list_requests) and the idempotency store's look-up (get_idempotent_request). */
const isoTime = z.iso.datetime({ offset: true });

/** Who made a logged call: `console` is a read the merchant console made to draw a page (REQUEST_ORIGIN_HEADER); `api` is everything else. */
export const REQUEST_ORIGINS = ['api', 'console'] as const;
export type RequestOrigin = (typeof REQUEST_ORIGINS)[number];

export const requestLogEntrySchema = z.object({
  object: z.literal('request'),
  /** The request's id, as in the `request-id` header and error bodies. */
  id: z.string(),
  created_at: isoTime,
  action: z.string(),
  status: z.int(),
  error_code: z.string().nullable(),
  duration_ms: z.int(),
  key_id: z.string(),
  /** The key's name (restricted keys; null for a secret key), kept after the key is revoked. */
  key_name: z.string().nullable(),
  idempotency_key: z.string().nullable(),
  replayed: z.boolean(),
  /** The object it created or read. */
  object_id: z.string().nullable(),
  client_address: z.string().nullable(),
  origin: z.enum(REQUEST_ORIGINS),
});
export const requestLogListSchema = z.object({ object: z.literal('list'), data: z.array(requestLogEntrySchema), has_more: z.boolean() });

export const listRequestsFields = {
  /** `action` already chooses the command. */
  request_action: z
    .string({ error: 'request_action must be a string' })
    .min(1)
    .max(100, { error: 'request_action is too long' })
    .optional(),
  status: z
    .int({ error: 'status must be an HTTP status' })
    .min(100, { error: 'status must be an HTTP status' })
    .max(599, { error: 'status must be an HTTP status' })
    .optional(),
  idempotency_key: z
    .string({ error: 'idempotency_key must be a string' })
    .min(1)
    .max(255, { error: 'idempotency_key is too long' })
    .optional(),
  key_id: idField('key').optional(),
  /** The object a call created or read: a payout's id finds its withdrawal and every read of it. */
  object_id: z
    .string({ error: 'object_id must be a string' })
    .min(1, { error: 'object_id must not be empty' })
    .max(100, { error: 'object_id is too long' })
    .optional(),
  origin: z.enum(REQUEST_ORIGINS, { error: `origin must be ${REQUEST_ORIGINS.join(' or ')}` }).optional(),
  limit: z
    .int({ error: 'limit must be an integer' })
    .min(1, { error: 'limit must be at least 1' })
    .max(100, { error: 'limit must be at most 100' })
    .optional(),
  starting_after: idField('req').optional(),
};

export const idempotentRequestSchema = z.object({
  object: z.literal('idempotent_request'),
  idempotency_key: z.string(),
  action: z.string(),
  /** The stored answer's status and body (a new key's secret is null in it). */
  status: z.int(),
  response: z.unknown(),
  first_seen_at: isoTime,
  replay_count: z.int().nonnegative(),
  expires_at: isoTime,
});
