// /settings: the merchant's time zone and low-balance threshold, and its payout approval policy; only the secret key changes them.
import { AccountSettingsForm } from '@/console/browser/components/account-settings-form';
import { ApprovalPolicyForm } from '@/console/browser/components/approval-policy-form';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { viewerCan } from '@/console/browser/viewer';
import { timeZoneChoices } from '@/lib/contract/time-zone';
import { env } from '@/lib/config/env';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { pageData } from '@/console/server/data/page-data';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'Settings · Merchant Console' };

export default async function SettingsPage() {
  const session = await requireSession();
  if (!viewerCan(session.viewer, 'secret_key'))
    return <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="secret_key" />;
  const [policy, settings] = await pageData(session, async () =>
    Promise.all([session.api.getApprovalPolicy().then((r) => r.data), session.api.getAccountSettings().then((r) => r.data)]),
  );
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="secret_key">
      <h1>Settings</h1>
      <section className="card" aria-labelledby="account-heading">
        <h2 id="account-heading">Time zone and low-balance alert</h2>
        <AccountSettingsForm initial={settings} zones={timeZoneChoices()} retentionSeconds={env().IDEMPOTENCY_KEY_TTL_SECONDS} />
      </section>
      <section className="card" aria-labelledby="policy-heading">
        <h2 id="policy-heading">Payout approvals</h2>
        <p className="muted">
          Payouts the policy catches wait in Approvals until a second key approves them; their amount is held out of your available balance.
          Unapproved payouts expire after {Math.round(policy.expires_after_seconds / 86_400)} days.
        </p>
        <ApprovalPolicyForm initial={policy} retentionSeconds={env().IDEMPOTENCY_KEY_TTL_SECONDS} />
      </section>
    </ConsoleShell>
  );
}
