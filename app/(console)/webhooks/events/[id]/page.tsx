// /webhooks/events/[id]: one event as the API answers get_event, and as it was delivered.
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { pageData } from '@/lib/console/page-data';
import { ConsoleShell } from '@/components/console-shell';
import { eventIdParam } from '@/lib/console/request-schemas';
import { requireSession } from '@/lib/session/session';

export const metadata = { title: 'Event · Merchant Console' };

export default async function EventPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession();
  const id = eventIdParam.safeParse((await params).id);
  if (!id.success) notFound();
  const event = await pageData(session, () => session.api.getEvent(id.data));
  return (
    <ConsoleShell testMode={session.testMode}>
      <p>
        <Link href="/webhooks">← Webhooks</Link>
      </p>
      <section className="card" aria-labelledby="event-heading">
        <h1 id="event-heading">
          {event.data.type} <code>{event.data.id}</code>
        </h1>
        <pre className="json" data-testid="event-json">
          {JSON.stringify(event.data, null, 2)}
        </pre>
      </section>
    </ConsoleShell>
  );
}
