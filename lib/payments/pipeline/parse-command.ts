import type { z } from 'zod';
import { ACTION_NAMES, type ActionContract, type ActionName, ApiError, describeFirstIssue } from '../../contract';
import { actions } from '../actions';
import type { ActionContext } from './action';
import type { PreparedWithdrawal } from '../payouts/withdrawal';

/** An action with its types erased: the contract schema has just validated the input it gets. */
interface AnyAction {
  contract: ActionContract;
  atomic?: boolean;
  oneTimeSecret?: boolean;
  run(ctx: ActionContext, input: unknown): Promise<object>;
  prepare?(ctx: PrepareContext, input: unknown): PreparedWithdrawal;
}

type PrepareContext = Pick<ActionContext, 'merchant' | 'key' | 'settings'>;

/** A validated command, ready to run. */
export interface Command {
  name: string;
  mutates: boolean;
  /** The one permission a restricted key needs for it (ACTIONS[name].permission). */
  permission: ActionContract['permission'];
  atomic: boolean;
  oneTimeSecret: boolean;
  run(ctx: ActionContext): Promise<object>;
  /** withdraw: the payout decided before the database, so that it may be committed with others (withdraw-group.ts). */
  prepare?(ctx: PrepareContext): PreparedWithdrawal;
}

/** Picks the action named by `action` and validates the whole body against its contract schema. */
export function parseCommand(body: Record<string, unknown>): Command {
  const name = body.action;
  if (name === undefined) throw new ApiError('invalid_request', 'action is required', 'action');
  if (typeof name !== 'string') throw new ApiError('invalid_request', 'action must be a string', 'action');
  const action = Object.hasOwn(actions, name) ? (actions[name as ActionName] as unknown as AnyAction) : undefined;
  if (!action) {
    throw new ApiError('unknown_action', `Unknown action. Known actions: ${ACTION_NAMES.join(', ')}.`, 'action');
  }
  const parsed = action.contract.request.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error);
  return {
    name, mutates: action.contract.mutates, permission: action.contract.permission, atomic: action.atomic ?? false, oneTimeSecret: action.oneTimeSecret ?? false, run: (ctx) => action.run(ctx, parsed.data),
    prepare: action.prepare && ((ctx) => action.prepare!(ctx, parsed.data)),
  };
}

function validationError(error: z.ZodError): ApiError {
  const { message, param } = describeFirstIssue(error);
  return new ApiError('invalid_request', message, param);
}
