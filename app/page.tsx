import { redirect } from 'next/navigation';

// The console lives at /dashboard; signed-out visitors are sent on to /login from there.
export default function Home() {
  redirect('/dashboard');
}
