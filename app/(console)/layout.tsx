import type { ReactNode } from 'react';
import { Providers } from '@/console/browser/components/providers';

// No auth check here: each page verifies the session itself (layouts do not re-run on navigation).
export default function ConsoleLayout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}
