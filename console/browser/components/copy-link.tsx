'use client';
import { useState } from 'react';

/** A payment link and its Copy button; `compact` (a table's cell) names the link "Open" instead of spelling the address out. */
export function CopyLink({ url, compact = false }: { url: string; compact?: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="copy-link">
      <a href={url} target="_blank" rel="noopener noreferrer" data-testid="checkout-link" title={compact ? url : undefined}>
        {compact ? 'Open' : url}
      </a>{' '}
      <button
        type="button"
        className="secondary"
        onClick={async () => {
          await navigator.clipboard.writeText(url).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? 'Copied' : 'Copy link'}
      </button>
    </span>
  );
}
