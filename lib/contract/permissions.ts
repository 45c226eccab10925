/**
 * What a restricted key (`rk_test_…`) may do: one permission per resource and
 * access. Every action names exactly the one it needs (ACTIONS[name].permission);
 * a secret key holds them all, key management needs a secret key (`secret_key`).
 */
export const PERMISSIONS = [
  'balance:read',
  'payouts:read',
  'payouts:write',
  'checkout_sessions:read',
  'checkout_sessions:write',
  'events:read',
  'webhooks:write',
  'requests:read',
  // Refunds.
  'refunds:read',
  'refunds:write',
  // Payout approvals: approve or reject payouts that other keys created.
  'payouts:approve',
  // Sandboxes: create, list, reset and delete this merchant's sandboxes (never act as them).
  'sandboxes:write',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** Needed by the actions no restricted key may call (creating, listing, revoking and rolling keys). */
export const SECRET_KEY_ONLY = 'secret_key' as const;

/** Needed by no one: any working key may call the action (get_current_key, so a key can learn what it may do). */
export const ANY_KEY = 'any_key' as const;

export type ActionPermission = Permission | typeof SECRET_KEY_ONLY | typeof ANY_KEY;

/**
 * Whether a key holding `permissions` (null: a secret key, which holds them all)
 * may call an action that needs `needed`. The core's check and the console's
 * choice of what to show both ask this.
 */
export function holds(permissions: readonly string[] | null, needed: ActionPermission): boolean {
  if (needed === ANY_KEY || permissions === null) return true;
  return needed !== SECRET_KEY_ONLY && permissions.includes(needed);
}
