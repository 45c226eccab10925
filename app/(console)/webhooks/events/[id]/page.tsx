// /webhooks/events/[id]: one event as the API answers get_event, and as it was delivered.
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { eventIdParam } from '@/console/server/routes/request-schemas';
import { viewerCan } from '@/console/browser/viewer';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'Event · Merchant Console' };

export default async function EventPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession();
  // Before any call the key may not make: the shell says what it lacks.
  if (!viewerCan(session.viewer, 'events:read'))
    return <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="events:read" />;
  const id = eventIdParam.safeParse((await params).id);
  if (!id.success) notFound();
  const event = await pageData(session, () => session.api.getEvent(id.data));
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="events:read">
      <p>
        <Link href="/webhooks">← Webhooks</Link>
      </p>
      <section className="card" aria-labelledby="event-heading">
        <h1 id="event-heading">
          {event.data.type} <code>{event.data.id}</code>
        </h1>
        <pre className="json" tabIndex={0} aria-label="Event JSON" data-testid="event-json">
          {JSON.stringify(event.data, null, 2)}
        </pre>
      </section>
    </ConsoleShell>
  );
}
