'use client';
import { useState } from 'react';

export function CopyLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="copy-link">
      <a href={url} target="_blank" rel="noopener noreferrer" data-testid="checkout-link">
        {url}
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
