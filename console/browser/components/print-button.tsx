'use client';

/** Opens the browser's print dialog (the print stylesheet makes the page a clean A4 statement). */
export function PrintButton({ label = 'Print' }: { label?: string }) {
  return (
    <button type="button" className="secondary no-print" onClick={() => window.print()}>
      {label}
    </button>
  );
}
