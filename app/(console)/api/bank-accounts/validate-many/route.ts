// POST /api/bank-accounts/validate-many: the holder's name of each account of a batch file, before anything is sent (same order, one per row).
import { validateManyAccountsSchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

/** Looked up a few at a time: a 1,000-row file must not open 1,000 calls at once. */
const AT_ONCE = 8;

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  const { accounts } = await readJson(req, validateManyAccountsSchema, 256 * 1024);
  const unique = [...new Map(accounts.map((a) => [`${a.bank_code}:${a.account_number}`, a])).values()];
  const found = new Map<string, { status: string; account_holder_name: string | null; failure_code: string | null }>();
  for (let i = 0; i < unique.length; i += AT_ONCE) {
    await Promise.all(
      unique.slice(i, i + AT_ONCE).map(async (a) => {
        const { status, account_holder_name, failure_code } = (await session.api.validateBankAccount(a)).data;
        found.set(`${a.bank_code}:${a.account_number}`, { status, account_holder_name, failure_code });
      }),
    );
  }
  return ok({ data: accounts.map((a) => found.get(`${a.bank_code}:${a.account_number}`)) });
});
