import type { ReactNode } from 'react';

/** A table's frame: it scrolls sideways inside its card on a narrow screen; focusable so a keyboard can scroll it too. */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
