'use client';
import { useState } from 'react';

/** An id with a button that copies it (its accessible name says which id). */
export function CopyText({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="copy-link">
      <code>{value}</code>{' '}
      <button
        type="button"
        className="secondary"
        aria-label={`Copy ${label}`}
        onClick={() =>
          navigator.clipboard.writeText(value).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
