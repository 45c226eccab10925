// /logs/idempotency?key=…: what the idempotency store holds for a key (get_idempotent_request): "did my retry
// create a second payout?" answered with the stored status and body, first seen, replays and expiry.
import Link from 'next/link';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { viewerCan } from '@/console/browser/viewer';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { idempotencyKeySchema } from '@/lib/contract';

import { requireSession } from '@/console/server/session/session';
import { UpstreamError } from '@/console/server/upstream/upstream-error';
import { Time } from '@/console/browser/components/time-zone';

export const metadata = { title: 'Idempotent request · Merchant Console' };

export default async function IdempotentRequestPage({ searchParams }: { searchParams: Promise<{ key?: string | string[] }> }) {
  const session = await requireSession();
  if (!viewerCan(session.viewer, 'requests:read'))
    return <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="requests:read" />;
  const key = idempotencyKeySchema.safeParse((await searchParams).key);
  const stored = key.success
    ? await pageData(session, () =>
        session.api.getIdempotentRequest(key.data).then(
          (r) => r.data,
          // Nothing stored for the key is an answer here, not the page's 404.
          (e: unknown) => {
            if (e instanceof UpstreamError && e.status === 404) return null;
            throw e;
          },
        ),
      )
    : null;
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="requests:read">
      <p>
        <Link href={key.success ? `/logs?idempotency_key=${encodeURIComponent(key.data)}` : '/logs'}>← Requests with this key</Link>
      </p>
      <h1>
        Idempotency key <code>{key.success ? key.data : ''}</code>
      </h1>
      {!stored ? (
        <p className="card" data-testid="idempotent-missing">
          Nothing is stored for this key: it was never used, its request did not complete, or it is past retention.
        </p>
      ) : (
        <section className="card" aria-labelledby="stored-heading" data-testid="idempotent-request">
          <h2 id="stored-heading">Stored answer</h2>
          <dl className="details">
            <dt>Action</dt>
            <dd>
              <code>{stored.action}</code>
            </dd>
            <dt>Status</dt>
            <dd>{stored.status}</dd>
            <dt>First seen</dt>
            <dd>
              <Time iso={stored.first_seen_at} />
            </dd>
            <dt>Replayed</dt>
            <dd data-testid="replay-count">
              {stored.replay_count === 0 ? 'Never' : stored.replay_count === 1 ? 'Once' : `${stored.replay_count} times`}
            </dd>
            <dt>Kept until</dt>
            <dd>
              <Time iso={stored.expires_at} />
            </dd>
          </dl>
          <p className="hint">Every retry with this key got this same answer; the action itself ran once.</p>
          <pre className="json" tabIndex={0} aria-label="Stored response body">
            {JSON.stringify(stored.response, null, 2)}
          </pre>
        </section>
      )}
    </ConsoleShell>
  );
}
