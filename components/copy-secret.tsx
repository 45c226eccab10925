'use client';
import { useState } from 'react';

/** A secret shown once, with a copy button; it lives in this component's memory only (never stored in the browser). */
export function CopySecret({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="copy-link">
      <code data-testid="one-time-secret">{secret}</code>{' '}
      <button
        type="button"
        className="secondary"
        onClick={() => navigator.clipboard.writeText(secret).then(() => setCopied(true), () => setCopied(false))}
      >
        {copied ? 'Copied' : 'Copy secret'}
      </button>
    </span>
  );
}
