// /api-keys: restricted keys for staff and systems (created, listed with last use, revoked) and rolling the secret key.
import { ApiKeysList } from '@/console/browser/components/api-keys-list';
import { ConsoleShell } from '@/console/browser/components/console-shell';
import { RestrictedKeyForm } from '@/console/browser/components/restricted-key-form';
import { RollKeyForm } from '@/console/browser/components/roll-key-form';
import { env } from '@/lib/config/env';
import { pageTimeZone } from '@/console/server/data/merchant-zone';
import { requireSession } from '@/console/server/session/session';

export const metadata = { title: 'API keys · Merchant Console' };

export default async function ApiKeysPage() {
  const session = await requireSession();
  const retentionSeconds = env().IDEMPOTENCY_KEY_TTL_SECONDS;
  return (
    <ConsoleShell viewer={session.viewer} timeZone={await pageTimeZone(session)} needs="secret_key">
      <h1>API keys</h1>
      <p className="hint">
        Give staff and systems a restricted key with only the permissions they need, instead of the secret key. Every payout, checkout
        session and request records the key that made it (see Payouts and Logs).
      </p>
      <section className="card" aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        <ApiKeysList />
      </section>
      <div className="columns">
        <section className="card" aria-labelledby="new-key-heading">
          <h2 id="new-key-heading">Create a restricted key</h2>
          <RestrictedKeyForm retentionSeconds={retentionSeconds} />
        </section>
        <section className="card" aria-labelledby="roll-heading">
          <h2 id="roll-heading">Roll the secret key</h2>
          <p className="hint">
            A new secret key replaces this one; the old one keeps working for the period you choose, so your servers can switch without
            downtime.
          </p>
          <RollKeyForm retentionSeconds={retentionSeconds} />
        </section>
      </div>
    </ConsoleShell>
  );
}
