import { z } from 'zod';
import { amountField } from './fields';

/**
 * Sandboxes (docs/testing-your-integration.md): a complete, isolated merchant of its parent, made
 * and wiped through the API so that each parallel test worker has its own account; and the test
 * clock a sandbox may have, which moves only when the test moves it.
 */

/** A sandbox lives 24 hours unless asked otherwise, at most 7 days; the server purges it then. */
export const SANDBOX_EXPIRY = { defaultSeconds: 86_400, maxSeconds: 7 * 86_400, minSeconds: 60 } as const;
/** Live sandboxes per parent unless SANDBOX_LIMIT says otherwise. */
export const DEFAULT_SANDBOX_LIMIT = 200;
/** What a sandbox holds when it begins, unless `balance` says otherwise (the demo merchant's). */
export const DEFAULT_SANDBOX_BALANCE = 10_000_000;
/** The longest one advance_test_clock may move a clock. */
export const MAX_CLOCK_ADVANCE_SECONDS = 31 * 86_400;

const isoTime = z.iso.datetime({ offset: true });

export const createSandboxFields = {
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .min(1, { error: 'name must not be empty' })
    .max(100, { error: 'name must be at most 100 characters' })
    .optional(),
  balance: amountField(0, 10_000_000_000).optional(),
  /** Starts with the parent's time zone, low-balance threshold and payout approval policy. */
  copy_settings: z.boolean({ error: 'copy_settings must be true or false' }).optional(),
  expires_in_seconds: z
    .int({ error: 'expires_in_seconds must be an integer' })
    .min(SANDBOX_EXPIRY.minSeconds, { error: `expires_in_seconds must be at least ${SANDBOX_EXPIRY.minSeconds}` })
    .max(SANDBOX_EXPIRY.maxSeconds, { error: `expires_in_seconds must be at most ${SANDBOX_EXPIRY.maxSeconds}` })
    .optional(),
  /** A frozen clock that starts at the real time and moves only with advance_test_clock. */
  test_clock: z.boolean({ error: 'test_clock must be true or false' }).optional(),
};

export const sandboxSchema = z.object({
  object: z.literal('sandbox'),
  id: z.string(),
  /** The sandbox's own merchant: its key acts as this merchant only. */
  merchant_id: z.string(),
  name: z.string(),
  /** What its balance began with, and goes back to on reset_sandbox. */
  balance: z.int().nonnegative(),
  created_at: isoTime,
  expires_at: isoTime,
  /** Its test clock's time, or null for a sandbox on the wall clock. */
  test_clock: isoTime.nullable(),
});

/** create_sandbox: the only answer with the sandbox's key (sk_test_…; null on an idempotent replay). */
export const sandboxWithKeySchema = sandboxSchema.extend({ secret_key: z.string().nullable() });
export const sandboxListSchema = z.object({ object: z.literal('list'), data: z.array(sandboxSchema), has_more: z.boolean() });
export const deletedSandboxSchema = z.object({ object: z.literal('sandbox'), id: z.string(), deleted: z.literal(true) });

export const advanceTestClockFields = {
  seconds: z
    .int({ error: 'seconds must be an integer' })
    .min(0, { error: 'seconds must not be negative: a clock never goes back' })
    .max(MAX_CLOCK_ADVANCE_SECONDS, { error: `seconds must be at most ${MAX_CLOCK_ADVANCE_SECONDS} (31 days)` })
    .optional(),
  to: isoTime.optional(),
};

export const testClockSchema = z.object({
  object: z.literal('test_clock'),
  /** The sandbox this clock belongs to. */
  sandbox_id: z.string(),
  now: isoTime,
});

export type Sandbox = z.infer<typeof sandboxSchema>;
export type TestClock = z.infer<typeof testClockSchema>;
