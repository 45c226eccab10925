// /login: sign in with the merchant's secret key.
import { redirect } from 'next/navigation';
import { LoginForm } from '@/components/login-form';
import { verifySession } from '@/lib/session/session';

export const metadata = { title: 'Sign in · Merchant Console' };

export default async function LoginPage() {
  if (await verifySession()) redirect('/dashboard');
  return (
    <main className="page center">
      <LoginForm />
    </main>
  );
}
