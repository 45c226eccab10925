'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { isCurrent, type NavItem } from '@/console/browser/nav';

/** The console's links as a list, the current page marked (rendered on the server too, so it works before hydration). */
export function NavLinks({ label, items }: { label: string; items: NavItem[] }) {
  const pathname = usePathname() ?? '';
  return (
    <nav aria-label={label}>
      <ul className="nav-list">
        {items.map((item) => (
          <li key={item.href}>
            <Link href={item.href} aria-current={isCurrent(item, pathname) ? 'page' : undefined}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
