import { ApiError } from '../../contract';
import { checkoutSessionJsonSql, eventCtes } from '../webhooks/event-sql';
import { createdBy } from '../pipeline/caller';
import { newId } from '../pipeline/random-id';
import { CHECKOUT_COLUMNS, checkoutSessionObject, type CheckoutSessionRow } from './checkout-session-object';
import { type ActionContext, readAction, writeAction } from '../pipeline/action';
import { listPage } from '../pipeline/list-page';

const DEFAULT_EXPIRES_IN = 86_400;

export const createCheckoutSession = writeAction('create_checkout_session', async ({ db, merchant, key, origin }, input) => {
  const [row] = await db.query<CheckoutSessionRow>(
    `INSERT INTO checkout_sessions (id, merchant_id, amount, currency, description, success_url, cancel_url, status, expires_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', app_now() + make_interval(secs => $8), $9::json)
     RETURNING ${CHECKOUT_COLUMNS}`,
    [
      newId('cs'),
      merchant.id,
      input.amount,
      merchant.currency,
      input.description ?? null,
      input.success_url ?? null,
      input.cancel_url ?? null,
      input.expires_in ?? DEFAULT_EXPIRES_IN,
      JSON.stringify(createdBy(key)),
    ],
  );
  return checkoutSessionObject(row!, origin);
});

async function findSession({ db, merchant }: ActionContext, id: string) {
  const [row] = await db.query<CheckoutSessionRow>(`SELECT ${CHECKOUT_COLUMNS} FROM checkout_sessions WHERE id = $1 AND merchant_id = $2`, [
    id,
    merchant.id,
  ]);
  if (!row) throw new ApiError('not_found', `No such checkout session: ${id}`, 'id');
  return row;
}

export const getCheckoutSession = readAction('get_checkout_session', async (ctx, input) =>
  checkoutSessionObject(await findSession(ctx, input.id), ctx.origin),
);

export const listCheckoutSessions = readAction('list_checkout_sessions', async (ctx, input) => {
  const page = await listPage<CheckoutSessionRow>(ctx.db, {
    table: 'checkout_sessions',
    columns: CHECKOUT_COLUMNS,
    merchantId: ctx.merchant.id,
    limit: input.limit,
    startingAfter: input.starting_after,
  });
  return { ...page, data: page.data.map((r) => checkoutSessionObject(r, ctx.origin)) };
});

/** Expires an open session at once; a complete one cannot be expired (409). Expiring twice is harmless. */
export const expireCheckoutSession = writeAction('expire_checkout_session', async (ctx, input) => {
  const [row] = await ctx.db.query<CheckoutSessionRow>(
    `WITH s AS (
       UPDATE checkout_sessions SET status = 'expired', expires_at = LEAST(expires_at, app_now())
       WHERE id = $1 AND merchant_id = $2 AND status = 'open' RETURNING *),
     ${eventCtes({ from: 's', type: 'checkout_session.expired', data: checkoutSessionJsonSql('s', '$3') })}
     SELECT ${CHECKOUT_COLUMNS} FROM s`,
    [input.id, ctx.merchant.id, ctx.origin],
  );
  if (row) return checkoutSessionObject(row, ctx.origin);
  const current = await findSession(ctx, input.id);
  if (current.status === 'complete' || current.status === 'refunded') {
    throw new ApiError('checkout_session_not_open', `Checkout session ${input.id} is ${current.status} and cannot be expired.`, 'id');
  }
  return checkoutSessionObject(current, ctx.origin);
});
