'use client';
import { useState } from 'react';

/**
 * A secret the API hands out once (a key, a signing secret): shown only now, with what to do with it.
 * A replayed answer carries no secret (the idempotency store never keeps one), so a retry says
 * where the secret went and how to get another.
 */
export function SecretShownOnce({
  secret,
  replayed,
  noun,
  use,
  getAnother,
}: {
  secret: string | null | undefined;
  replayed?: boolean;
  /** What it is, e.g. "Its signing secret". */
  noun: string;
  /** What to do with it. */
  use: string;
  /** How to get another when the answer was a replay. */
  getAnother: string;
}) {
  if (secret) {
    return (
      <>
        <p>
          {noun}, shown only now. {use}:
        </p>
        <CopySecret secret={secret} />
      </>
    );
  }
  if (!replayed) return null;
  return (
    <p className="warning">
      This was a retry of an earlier request whose answer was lost: the secret was shown then and is not shown again. {getAnother}
    </p>
  );
}

/** A secret with a copy button; it lives in this component's memory only (never stored in the browser). */
function CopySecret({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="copy-link">
      <code data-testid="one-time-secret">{secret}</code>{' '}
      <button
        type="button"
        className="secondary"
        onClick={() =>
          navigator.clipboard.writeText(secret).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? 'Copied' : 'Copy secret'}
      </button>
    </span>
  );
}
