import type { z } from 'zod';
import { actions, actionNames } from './actions';
import type { Action } from './actions/action';
import { ApiError } from './errors';

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

/** The first issue names the field: an unknown one by its own name, a bad one by its path. */
function validationError(error: z.ZodError): ApiError {
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const field = issue.keys[0]!;
    return new ApiError('invalid_request', `Unknown field: ${field}`, field);
  }
  const param = issue.path.map(String).join('.') || undefined;
  const message = param && !issue.message.startsWith(param) ? `${param}: ${issue.message}` : issue.message;
  return new ApiError('invalid_request', message, param);
}
