import { ApiError, holds, type ActionPermission } from '../../contract';
import type { CallerKey } from './caller';

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
