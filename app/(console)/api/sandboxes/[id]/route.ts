// POST /api/sandboxes/[id] { op, idempotency_key }: reset a sandbox (its data wiped, its balance back) or delete it.
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';
import { sandboxIdParam, sandboxOpSchema } from '@/console/server/routes/request-schemas';

export const dynamic = 'force-dynamic';

export const POST = sessionRoute<{ id: string }>({ mutates: true }, async ({ req, params, session }) => {
  const id = sandboxIdParam.parse(params.id);
  const { op, idempotency_key } = await readJson(req, sandboxOpSchema);
  const { data, replayed } =
    op === 'reset' ? await session.api.resetSandbox(id, idempotency_key) : await session.api.deleteSandbox(id, idempotency_key);
  return ok({ ...data, replayed });
});
