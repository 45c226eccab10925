import { z } from 'zod';
import { PERMISSIONS } from './permissions';

/**
 * API keys (docs/api.md, "Keys"): the merchant's secret key (sk_test_…) holds
 * every permission; restricted keys (rk_test_…) hold the ones they were made with.
 */
export const API_KEY_PATTERN = /^(sk|rk)_test_[0-9A-Za-z]{32,200}$/;
/** The merchant's own secret key alone (a demo key given in the environment must be one). */
export const SECRET_KEY_PATTERN = /^sk_test_[0-9A-Za-z]{32,200}$/;
export const API_KEY_TYPES = ['secret', 'restricted'] as const;
/** The longest a rolled secret key keeps working: 7 days. */
export const MAX_KEY_GRACE_SECONDS = 7 * 86_400;

export const permissionsField = z
  .array(z.enum(PERMISSIONS, { error: `permissions must be among ${PERMISSIONS.join(', ')}` }), { error: 'permissions must be a list' })
  .min(1, { error: 'permissions must not be empty' })
  .refine((list) => new Set(list).size === list.length, { error: 'permissions must not repeat a permission' });

/** Who made an object: the key's id, name and type when it was made (kept after the key is revoked). */
export const createdBySchema = z.object({ key_id: z.string(), key_name: z.string().nullable(), type: z.enum(API_KEY_TYPES) }).nullable();

const isoTime = z.iso.datetime({ offset: true });

export const apiKeySchema = z.object({
  object: z.literal('api_key'),
  id: z.string(),
  type: z.enum(API_KEY_TYPES),
  name: z.string().nullable(),
  /** `sk_test_…abcd`: enough to recognise a key, never enough to use it. */
  hint: z.string(),
  /** null for a secret key: it holds every permission. */
  permissions: z.array(z.string()).nullable(),
  max_payout_amount: z.int().positive().nullable(),
  created_at: isoTime,
  last_used_at: isoTime.nullable(),
  /** A rolled secret key works until then. */
  expires_at: isoTime.nullable(),
  revoked_at: isoTime.nullable(),
});

export const apiKeyListSchema = z.object({ object: z.literal('list'), data: z.array(apiKeySchema), has_more: z.boolean() });

/** create_restricted_key and roll_secret_key: the only answers with the key itself (null on an idempotent replay). */
export const apiKeyWithSecretSchema = apiKeySchema.extend({ secret: z.string().nullable() });

/**
 * get_current_key: the calling key (never its secret) and whose it is, so a client can show what it may do,
 * and in which zone (any key may ask, so a console shows every key's times in the merchant's zone).
 */
export const currentKeySchema = apiKeySchema.extend({
  merchant: z.object({
    id: z.string(),
    name: z.string(),
    time_zone: z.string(),
    /** The sandbox this merchant is (create_sandbox), or null for a merchant of its own: the console marks a sandbox's session. */
    sandbox_id: z.string().nullable(),
  }),
});

export type ApiKey = z.infer<typeof apiKeySchema>;
export type CurrentKey = z.infer<typeof currentKeySchema>;
export type CreatedBy = z.infer<typeof createdBySchema>;
