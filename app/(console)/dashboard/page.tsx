// /dashboard: balance, money in and out over 7 days, the payout form with its test accounts, the latest payouts and
// payments; each only when the signed-in key may use it.
import { ApprovalsWaiting } from '@/console/browser/components/approvals-waiting';
import { BalanceCard } from '@/console/browser/components/balance-card';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { LatestPayments } from '@/console/browser/components/latest-payments';
import { MoneyFlowCard } from '@/console/browser/components/money-flow-card';
import { PayoutPanel } from '@/console/browser/components/payout-panel';
import { RecentPayouts } from '@/console/browser/components/recent-payouts';
import { TestAccounts } from '@/console/browser/components/test-accounts';
import { viewerCan } from '@/console/browser/viewer';
import { env } from '@/lib/config/env';
import { latestPayments, moneyFlow } from '@/console/server/data/money-flow';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'Dashboard · Merchant Console' };

export default async function DashboardPage() {
  const session = await requireSession();
  const zone = await pageTimeZone(session);
  const can = (needed: Parameters<typeof viewerCan>[1]) => viewerCan(session.viewer, needed);
  const [flow, payments] = await pageData(session, () =>
    Promise.all([can('balance:read') ? moneyFlow(session.api, 7) : null, can('balance:read') ? latestPayments(session.api) : null]),
  );
  return (
    <ConsoleShell viewer={session.viewer} timeZone={zone}>
      {can('balance:read') && <BalanceCard />}
      {flow && <MoneyFlowCard flow={flow} currency="IDR" timeZone={zone} />}
      {can('payouts:write') && (
        <div className="columns">
          <section className="card" aria-labelledby="payout-heading">
            <h2 id="payout-heading">Send a payout</h2>
            <PayoutPanel currency="IDR" retentionSeconds={env().IDEMPOTENCY_KEY_TTL_SECONDS} />
          </section>
          <TestAccounts />
        </div>
      )}
      {can('payouts:read') && (
        <section className="card" aria-labelledby="payouts-heading">
          <h2 id="payouts-heading">Payouts</h2>
          <ApprovalsWaiting />
          <RecentPayouts />
        </section>
      )}
      {payments && (
        <section className="card" aria-labelledby="payments-heading">
          <h2 id="payments-heading">Latest payments</h2>
          <LatestPayments payments={payments} />
        </section>
      )}
    </ConsoleShell>
  );
}
