// POST /api/bank-accounts/validate: the account holder's name before a payout (the account number in the body, never in a URL).
import { validateBankAccountSchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  const input = await readJson(req, validateBankAccountSchema);
  return ok((await session.api.validateBankAccount(input)).data);
});
