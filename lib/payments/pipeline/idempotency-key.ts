import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { ApiError, IDEMPOTENCY_HEADER } from '../../contract';
import type { HeaderReader } from './api-request';
import type { CoreSettings } from './core-settings';

/** A state-changing request under an idempotency key, as the idempotency store (idempotency.ts) and group commit take it. */
export interface IdempotentCall {
  merchantId: string;
  key: string;
  action: string;
  fingerprint: string;
  ttlSeconds: number;
  waitSeconds: number;
}

/** Visible ASCII only (no spaces or control characters), 1 to 255 of them. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function parseIdempotencyKey(headers: HeaderReader): string | undefined {
  const key = headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_idempotency_key', `${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters`, IDEMPOTENCY_HEADER);
  }
  return key;
}

/** Same command, same fingerprint: key order and whitespace of the JSON do not matter. */
export const fingerprint = (command: unknown) =>
  createHash('sha256')
    .update(stringify(command) ?? '', 'utf8')
    .digest('hex');

/** The request's idempotency key and the command's fingerprint; undefined when it sent no key (a bad one is refused). */
export function idempotentCall(
  headers: HeaderReader,
  command: unknown,
  merchantId: string,
  action: string,
  settings: Pick<CoreSettings, 'idempotencyTtlSeconds' | 'idempotencyWaitSeconds'>,
): IdempotentCall | undefined {
  const key = parseIdempotencyKey(headers);
  if (key === undefined) return undefined;
  return {
    merchantId,
    key,
    action,
    fingerprint: fingerprint(command),
    ttlSeconds: settings.idempotencyTtlSeconds,
    waitSeconds: settings.idempotencyWaitSeconds,
  };
}
