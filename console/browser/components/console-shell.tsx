import type { ReactNode } from 'react';
import type { ActionPermission } from '@/lib/contract';
import { NAV_ITEMS } from '@/console/browser/nav';
import { viewerCan, type Viewer } from '@/console/browser/viewer';
import { LowBalanceBanner } from './low-balance-banner';
import { MerchantName } from './merchant-name';
import { NavLinks } from './nav-links';
import { NotPermitted } from './not-permitted';
import { SignOutButtons } from './sign-out-buttons';
import { Icon } from './status-badge';
import { TimeZoneProvider, ZoneNote } from './time-zone';

/**
 * The frame of every signed-in page: navigation (only the pages the key may use),
 * the test-mode banner, the low-balance banner, who is signed in, sign-out, and the merchant's zone every time is shown in
 * (`timeZone`, read by the page on the server and handed to every component). Wide screens show the bar;
 * narrow ones a <details> menu, which opens without JavaScript. With `needs`, a key
 * without that permission sees why instead of the page.
 */
export function ConsoleShell({
  viewer,
  timeZone,
  needs,
  children,
}: {
  viewer: Viewer;
  timeZone: string;
  needs?: ActionPermission;
  children?: ReactNode;
}) {
  const items = NAV_ITEMS.filter((item) => viewerCan(viewer, item.needs));
  return (
    <TimeZoneProvider zone={timeZone}>
      {viewer.testMode && (
        <div className="test-banner" role="status">
          Test mode: payouts and payments are simulated; no real money moves.
        </div>
      )}
      {viewer.sandbox && (
        <div className="test-banner" role="status" data-testid="sandbox-banner">
          Sandbox: a copy of an account made for tests. Its data is wiped when it is reset, deleted or expires.
        </div>
      )}
      {viewerCan(viewer, 'balance:read') && <LowBalanceBanner />}
      <header className="topbar">
        <div className="brand">
          <strong>Merchant Console</strong>
          <MerchantName viewer={viewer} />
          <ZoneNote />
        </div>
        <div className="bar-wide">
          <NavLinks label="Console" items={items} />
          <SignOutButtons />
        </div>
        <details className="menu">
          <summary>
            <Icon name="menu" className="icon-menu" />
            <Icon name="close" className="icon-close" />
            Menu
          </summary>
          <div className="menu-panel">
            <NavLinks label="Console menu" items={items} />
            <SignOutButtons />
          </div>
        </details>
      </header>
      <main className="page">{needs && !viewerCan(viewer, needs) ? <NotPermitted needs={needs} viewer={viewer} /> : children}</main>
    </TimeZoneProvider>
  );
}
