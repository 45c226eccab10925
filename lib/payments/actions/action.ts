import type { z } from 'zod';
import type { Queryable } from '../../db/types';
import type { Merchant } from '../merchants';

export interface CoreSettings {
  idempotencyTtlSeconds: number;
  idempotencyWaitSeconds: number;
  settlementDelaySeconds: number;
  /** Public origin for links the API hands out (checkout URLs); the request's own origin when unset. */
  publicBaseUrl?: string;
}

export interface ActionContext {
  /** The request's transaction (state-changing actions) or the database (reads). */
  db: Queryable;
  merchant: Merchant;
  settings: CoreSettings;
  /** Origin that links in responses point to. */
  origin: string;
}

export interface Action<S extends z.ZodType = z.ZodType> {
  /** Parses the whole command body, `action` included: unknown fields are refused. */
  schema: S;
  /** State-changing actions run in a transaction and honour the idempotency key. */
  mutates: boolean;
  run(ctx: ActionContext, input: z.infer<S>): Promise<object>;
}

export const defineAction = <S extends z.ZodType>(action: Action<S>) => action;
