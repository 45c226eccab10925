// GET /api/account-settings: the merchant's time zone and low-balance threshold. POST: change them (the secret key; idempotent by idempotency_key).
import { updateAccountSettingsSchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ session }) => ok((await session.api.getAccountSettings()).data));

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  const { idempotency_key, ...input } = await readJson(req, updateAccountSettingsSchema);
  const { data, replayed } = await session.api.updateAccountSettings(input, idempotency_key);
  return ok({ ...data, replayed });
});
