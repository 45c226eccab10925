import { ApiError, holds, type ActionPermission } from '../../contract';
import type { CallerKey } from './authenticate';

/**
 * A restricted key may call an action only with the permission the contract names
 * for it; no restricted key may call the key-management actions (`secret_key`).
 * A secret key may call everything; any key may ask what it is (`any_key`).
 */
export function assertPermitted(key: CallerKey, command: { name: string; permission: ActionPermission }): void {
  if (holds(key.permissions, command.permission)) return;
  if (command.permission === 'secret_key') {
    throw new ApiError('permission_denied', `Only a secret key may call ${command.name}; this is a restricted key.`);
  }
  throw new ApiError('permission_denied', `This restricted key lacks the permission ${command.permission}, which ${command.name} needs.`);
}

/** A restricted key's max_payout_amount: each payout above it is refused before anything is debited. */
export function assertPayoutWithinLimit(key: CallerKey, amount: number, param: string): void {
  if (key.maxPayoutAmount !== null && amount > key.maxPayoutAmount) {
    throw new ApiError(
      'payout_limit_exceeded',
      `${param} ${amount} is above this key's max_payout_amount of ${key.maxPayoutAmount}.`,
      param,
    );
  }
}

/** Who made an object, as its `created_by` shows it (a snapshot: the key may be revoked later). */
export const createdBy = (key: CallerKey) => ({ key_id: key.id, key_name: key.name, type: key.type });
