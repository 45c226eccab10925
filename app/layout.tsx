import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  title: 'Merchant Console',
  description: 'Balances, payouts and checkout for merchants',
  referrer: 'no-referrer',
  icons: { icon: '/icon.svg' },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: the CSP nonce from proxy.ts is new each time.
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
