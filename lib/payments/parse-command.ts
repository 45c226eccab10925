import type { z } from 'zod';
import { actions, actionNames } from './actions';
import type { Action } from './actions/action';
import { ApiError } from './errors';
import { describeFirstIssue } from './zod-issue';

/** Picks the action named by `action` and validates the whole body against its schema. */
export function parseCommand(body: Record<string, unknown>): { name: string; action: Action; input: unknown } {
  const name = body.action;
  if (name === undefined) throw new ApiError('invalid_request', 'action is required', 'action');
  if (typeof name !== 'string') throw new ApiError('invalid_request', 'action must be a string', 'action');
  const action = Object.hasOwn(actions, name) ? actions[name] : undefined;
  if (!action) {
    throw new ApiError('unknown_action', `Unknown action. Known actions: ${actionNames.join(', ')}.`, 'action');
  }
  const parsed = action.schema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error);
  return { name, action, input: parsed.data };
}

function validationError(error: z.ZodError): ApiError {
  const { message, param } = describeFirstIssue(error);
  return new ApiError('invalid_request', message, param);
}
