import Link from 'next/link';
import type { ActionPermission } from '@/lib/contract';
import type { Viewer } from '@/console/browser/viewer';

/** A page the signed-in key may not use: which permission it lacks, and who can grant it. */
export function NotPermitted({ needs, viewer }: { needs: ActionPermission; viewer: Viewer }) {
  return (
    <section className="card" aria-labelledby="not-permitted-heading" data-testid="not-permitted">
      <h1 id="not-permitted-heading">Not available with this key</h1>
      <p>
        {needs === 'secret_key' ? (
          'Only the account’s secret key can use this page.'
        ) : (
          <>
            This page needs the permission <code>{needs}</code>.
          </>
        )}{' '}
        You are signed in with the restricted key “{viewer.key.name}”: ask the account owner for a key that may do this.
      </p>
      <p>
        <Link href="/dashboard">Back to the dashboard</Link>
      </p>
    </section>
  );
}
