import { z } from 'zod';

/** The wire names of the payment API, shared by its mounts, the SDK, the console and the tests. */
export const API_PATH = '/v1/index.php';
export const OPENAPI_PATH = '/v1/openapi.json';
export const IDEMPOTENCY_HEADER = 'x-service-idempotency';
export const REPLAYED_HEADER = 'x-service-idempotent-replayed';
export const REQUEST_ID_HEADER = 'request-id';
/**
 * Sent by the merchant console on the reads it makes to draw its pages (value `console`): the request log
 * records such a read with origin `console`, so the log can put them behind a filter. It only classifies a
 * successful read by the merchant's own key; a write or a refusal is logged as `api` whatever the header says.
 */
export const REQUEST_ORIGIN_HEADER = 'x-service-origin';

/** The one idempotency-key rule, for the API's header and the console's field: visible ASCII, 1 to 255 characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_RULE = '1 to 255 visible ASCII characters';
export const idempotencyKeySchema = z
  .string({ error: 'idempotency_key is required' })
  .regex(IDEMPOTENCY_KEY_PATTERN, { error: `idempotency_key must be ${IDEMPOTENCY_KEY_RULE}` });

/** Largest JSON body the API reads (a batch of 1,000 payouts with references fits); past it, 413 without reading further. */
export const MAX_BODY_BYTES = 256 * 1024;
/** Largest JSON body a console route reads. */
export const CONSOLE_MAX_BODY_BYTES = 16 * 1024;
