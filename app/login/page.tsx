// /login: sign in with the merchant's secret key.
import { redirect } from 'next/navigation';
import { LoginForm } from '@/components/login-form';
import { verifySession } from '@/lib/session/session';

export const metadata = { title: 'Sign in · Merchant Console' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ ended?: string }> }) {
  if (await verifySession()) redirect('/dashboard');
  const ended = (await searchParams).ended === '1';
  return (
    <main className="page center">
      {ended && (
        <p className="warning" role="status" data-testid="session-ended">
          Your session ended: you signed out elsewhere, it expired, or its API key was revoked or rolled. Sign in again.
        </p>
      )}
      <LoginForm />
    </main>
  );
}
