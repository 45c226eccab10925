// /login: sign in with the merchant's secret key.
import { redirect } from 'next/navigation';
import { LoginForm } from '@/components/login-form';
import { safeNextPath } from '@/lib/client/safe-next';
import { verifySession } from '@/lib/session/session';

export const metadata = { title: 'Sign in · Merchant Console' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const next = safeNextPath((await searchParams).next);
  if (await verifySession()) redirect(next);
  return (
    <main className="page center">
      <LoginForm next={next} />
    </main>
  );
}
