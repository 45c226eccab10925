'use client';
import type { ConsoleRequestError } from '@/console/browser/queries/console-fetch';
import { MAX_ATTEMPTS, stillTrying } from '@/console/browser/queries/retry-policy';
import { ErrorText } from './error-text';

interface Intent {
  mutation: { isError: boolean; isPending: boolean; error: ConsoleRequestError | null; failureCount: number };
  outcomeUnknown: boolean;
}

/** While a write is retried: which attempt, of how many, under the same key (console/browser/queries/retry-policy.ts). */
export function RetryingNote({ failureCount, lead = 'Outcome unknown: the response was lost.' }: { failureCount: number; lead?: string }) {
  return (
    <p className="warning" role="status">
      {lead} {stillTrying(failureCount)} with the same idempotency key…
    </p>
  );
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
      {intent.outcomeUnknown && intent.mutation.isPending && <RetryingNote failureCount={intent.mutation.failureCount} />}
      {intent.outcomeUnknown && !intent.mutation.isPending && (
        <p className="warning">
          Outcome unknown after {MAX_ATTEMPTS} attempts: sending again uses the same idempotency key, so it cannot act twice.
        </p>
      )}
    </>
  );
}

interface SentIntent<I> {
  mutation: { isPending: boolean; isError: boolean; error: ConsoleRequestError | null; failureCount: number };
  outcomeUnknown: boolean;
  send(input: I): void;
}

/**
 * Under a review step once its intent is sent, until the answer: sending; a lost answer being asked
 * again with the same key; an outcome still unknown, to check again (`safeAgain` says why that cannot
 * act twice); a refusal, to edit. The success is each form's own.
 */
export function SentIntentStatus<I>({
  intent,
  input,
  noun,
  safeAgain,
  refusedTestId,
  onEdit,
}: {
  intent: SentIntent<I>;
  input: I;
  noun: string;
  safeAgain: string;
  refusedTestId: string;
  onEdit(): void;
}) {
  const { mutation, outcomeUnknown } = intent;
  return (
    <>
      {mutation.isPending &&
        (outcomeUnknown ? (
          <RetryingNote failureCount={mutation.failureCount} />
        ) : (
          <p className="muted" role="status">
            Sending…
          </p>
        ))}
      {mutation.isError && outcomeUnknown && (
        <div className="warning" role="alert">
          <p>
            Outcome unknown: <ErrorText error={mutation.error!} /> {safeAgain}
          </p>
          <button type="button" onClick={() => intent.send(input)}>
            Check again
          </button>
        </div>
      )}
      {mutation.isError && !outcomeUnknown && (
        <div role="alert">
          <p className="error" data-testid={refusedTestId}>
            The {noun} was refused: <ErrorText error={mutation.error!} />
          </p>
          <button type="button" onClick={onEdit}>
            Edit and try again
          </button>
        </div>
      )}
    </>
  );
}
