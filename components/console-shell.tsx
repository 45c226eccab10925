import type { ReactNode } from 'react';
import { MerchantName } from './merchant-name';
import { NavLinks } from './nav-links';
import { SignOutButtons } from './sign-out-buttons';

/**
 * The frame of every signed-in page: navigation, the test-mode banner, sign-out.
 * Wide screens show the bar; narrow ones a <details> menu, which opens without JavaScript.
 */
export function ConsoleShell({ testMode, children }: { testMode: boolean; children: ReactNode }) {
  return (
    <>
      {testMode && (
        <div className="test-banner" role="status">
          Test mode: payouts and payments are simulated; no real money moves.
        </div>
      )}
      <header className="topbar">
        <div className="brand">
          <strong>Merchant Console</strong>
          <MerchantName />
        </div>
        <div className="bar-wide">
          <NavLinks label="Console" />
          <SignOutButtons />
        </div>
        <details className="menu">
          <summary>Menu</summary>
          <div className="menu-panel">
            <NavLinks label="Console menu" />
            <SignOutButtons />
          </div>
        </details>
      </header>
      <main className="page">{children}</main>
    </>
  );
}
