// /refunds/[id]: a refund is shown on its checkout session's page; the balance history links here by the refund's id.
import { notFound, redirect } from 'next/navigation';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { viewerCan } from '@/console/browser/viewer';
import { isId } from '@/lib/contract';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { requireSession } from '@/console/server/session/session';

export default async function RefundPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession();
  if (!viewerCan(session.viewer, 'refunds:read'))
    return <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="refunds:read" />;
  const { id } = await params;
  if (!isId('re', id)) notFound();
  const refund = (await pageData(session, () => session.api.getRefund(id))).data;
  redirect(`/checkout-sessions/${refund.checkout_session_id}#${refund.id}`);
}
