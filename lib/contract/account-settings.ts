import { z } from 'zod';

/**
 * The merchant's account settings (docs/api.md, "Account settings"): the time zone its periods are
 * read in (statements, summaries, the console's days) and the low-balance threshold. Pure zod.
 */

/** Every merchant of this service starts on Indonesian western time (WIB) until it says otherwise. */
export const DEFAULT_TIME_ZONE = 'Asia/Jakarta';

/** Whether `name` is an IANA zone this runtime knows (Intl throws a RangeError for any other). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.length > 0;
  } catch {
    return false;
  }
}

export const timeZoneField = z
  .string({ error: 'time_zone must be an IANA time zone name, for example Asia/Jakarta' })
  .max(64, { error: 'time_zone must be at most 64 characters' })
  .refine(isTimeZone, { error: 'time_zone must be an IANA time zone name, for example Asia/Jakarta' });

export const lowBalanceThresholdField = z
  .int({ error: 'low_balance_threshold must be an integer in the smallest currency unit, or null' })
  .min(0, { error: 'low_balance_threshold must be at least 0' })
  .max(9_007_199_254_740_991, { error: 'low_balance_threshold is too large' })
  .nullable();

export const accountSettingsSchema = z.object({
  object: z.literal('account_settings'),
  time_zone: z.string(),
  /** Below this `available`, balance.low is sent once (and balance.recovered once it is back); null: no alert. */
  low_balance_threshold: z.int().nonnegative().nullable(),
});
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

export const updateAccountSettingsFields = {
  time_zone: timeZoneField.optional(),
  low_balance_threshold: lowBalanceThresholdField.optional(),
};
