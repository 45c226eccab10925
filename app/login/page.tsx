// /login: sign in with the merchant's secret key.
import { redirect } from 'next/navigation';
import { LoginForm } from '@/console/browser/components/login-form';
import { safeNextPath } from '@/console/browser/safe-next';
import { verifySession } from '@/console/server/session/session';

export const metadata = { title: 'Sign in · Merchant Console' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[]; ended?: string }> }) {
  const params = await searchParams;
  const next = safeNextPath(params.next);
  if (await verifySession()) redirect(next);
  return (
    <main className="page center">
      {params.ended === '1' && (
        <p className="warning" role="status" data-testid="session-ended">
          Your session ended: you signed out elsewhere, it expired, or its API key was revoked or rolled. Sign in again.
        </p>
      )}
      <LoginForm next={next} />
    </main>
  );
}
