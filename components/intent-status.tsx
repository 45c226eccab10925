'use client';
import type { ConsoleRequestError } from '@/lib/client/console-fetch';
import { ErrorText } from './error-text';

interface Intent {
  mutation: { isError: boolean; error: ConsoleRequestError | null };
  outcomeUnknown: boolean;
}

/**
 * Under a form that sends one intent with one idempotency key: the form's own check (a sentence),
 * or the API's refusal in words with its code, or, while the answer is unknown, that the same key
 * is being retried. One place, so every such form says these things alike.
 */
export function IntentStatus({ error, intent, limits }: { error?: string | null; intent: Intent; limits?: { min: number; max: number } }) {
  const refused = intent.mutation.isError && !intent.outcomeUnknown ? intent.mutation.error : null;
  return (
    <>
      {(error || refused) && (
        <p className="error" role="alert">
          {error ?? <ErrorText error={refused!} limits={limits} />}
        </p>
      )}
      {intent.outcomeUnknown && <p className="warning">Outcome unknown: retrying with the same idempotency key…</p>}
    </>
  );
}
