import type { z } from 'zod';
import { ACTION_NAMES, type ActionContract, type ActionName, ApiError, describeFirstIssue } from '../../contract';
import type { ActionTable, AnyAction } from './action';

/** A validated command: its action and the input the contract schema accepted. */
export interface Command {
  name: string;
  /** The one permission a restricted key needs for it (ACTIONS[name].permission). */
  permission: ActionContract['permission'];
  action: AnyAction;
  input: unknown;
}

/** Picks the action named by `action` in the table and validates the whole body against its contract schema. */
export function parseCommand(actions: ActionTable, body: Record<string, unknown>): Command {
  const name = body.action;
  if (name === undefined) throw new ApiError('invalid_request', 'action is required', 'action');
  if (typeof name !== 'string') throw new ApiError('invalid_request', 'action must be a string', 'action');
  const action = Object.hasOwn(actions, name) ? (actions[name as ActionName] as AnyAction) : undefined;
  if (!action) {
    throw new ApiError('unknown_action', `Unknown action. Known actions: ${ACTION_NAMES.join(', ')}.`, 'action');
  }
  const parsed = action.contract.request.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error);
  return { name, permission: action.contract.permission, action, input: parsed.data };
}

function validationError(error: z.ZodError): ApiError {
  const { message, param } = describeFirstIssue(error);
  return new ApiError('invalid_request', message, param);
}
