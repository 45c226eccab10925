// /payouts: every payout, filtered by ?q (a po_ id opens it; four digits search the account), status and from/to dates;
// the filter's count and total (summarize_payouts), and its CSV export.
import { redirect } from 'next/navigation';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { PayoutsList } from '@/console/browser/components/payouts-list';
import { PayoutSummary } from '@/console/browser/components/payout-summary';
import { PayoutsView } from '@/console/browser/components/payouts-view';
import { fieldMessage } from '@/console/browser/messages';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { isPayoutId, payoutFilterOf, readPayoutView } from '@/console/browser/payout-view';
import { viewerCan } from '@/console/browser/viewer';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'Payouts · Merchant Console' };

type Search = Record<string, string | string[] | undefined>;

export default async function PayoutsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requireSession();
  const zone = await pageTimeZone(session);
  // Before any call the key may not make: the shell says what it lacks.
  if (!viewerCan(session.viewer, 'payouts:read')) return <ConsoleShell viewer={session.viewer} timeZone={zone} needs="payouts:read" />;
  const parsed = readPayoutView(await searchParams);
  const view = parsed.success ? parsed.data : {};
  if (isPayoutId(view.q)) redirect(`/payouts/${view.q}`);
  const issue = parsed.success ? undefined : parsed.error.issues[0]!;
  const filter = payoutFilterOf(view, zone);
  // Each filter gets fresh client state (its first page, its own figures); sibling keys must differ.
  const filterKey = JSON.stringify(filter);
  const summary = await pageData(session, async () => (await session.api.summarizePayouts(filter)).data);
  return (
    <ConsoleShell viewer={session.viewer} timeZone={zone} needs="payouts:read">
      <h1>Payouts</h1>
      <section className="card" aria-label="Payouts">
        <PayoutsView view={view}>
          {issue && (
            <p className="error" role="alert" data-testid="filter-error">
              {fieldMessage(String(issue.path[0]), { code: issue.code, input: 'x' }) ?? issue.message}
            </p>
          )}
          <PayoutSummary key={`summary-${filterKey}`} initial={summary} filter={filter} view={view} />
          <PayoutsList key={`list-${filterKey}`} filter={filter} />
        </PayoutsView>
      </section>
    </ConsoleShell>
  );
}
