// /sandboxes: the merchant's sandboxes (made through the API for test runs), each reset or deleted here.
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { SandboxesTable } from '@/console/browser/components/sandboxes-table';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { requireSession } from '@/console/server/session/session';
import { viewerCan } from '@/console/browser/viewer';

export const metadata = { title: 'Sandboxes · Merchant Console' };
export const dynamic = 'force-dynamic';

export default async function SandboxesPage() {
  const session = await requireSession();
  const allowed = viewerCan(session.viewer, 'sandboxes:write');
  const list = allowed ? (await session.api.listSandboxes({ limit: 100 })).data : null;
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="sandboxes:write">
      <h1>Sandboxes</h1>
      <p className="hint">
        A sandbox is a separate test account of yours, made by <code>create_sandbox</code> (one per test worker, say): its own key, balance,
        payouts and webhooks. Reset one to wipe its data and restore its starting balance; delete one when you no longer need it. See
        docs/testing-your-integration.md.
      </p>
      {list && (
        <section className="card" aria-labelledby="sandboxes-heading">
          <h2 id="sandboxes-heading">Live sandboxes</h2>
          <SandboxesTable sandboxes={list.data} more={list.has_more} />
        </section>
      )}
    </ConsoleShell>
  );
}
