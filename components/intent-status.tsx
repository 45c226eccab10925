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
export function SentIntentStatus<I>({ intent, input, noun, safeAgain, refusedTestId, onEdit }: {
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
      {mutation.isPending && (
        <p className={outcomeUnknown ? 'warning' : 'muted'} role="status">
          {outcomeUnknown ? `Outcome unknown: the response was lost. Retrying with the same idempotency key (attempt ${mutation.failureCount + 1})…` : 'Sending…'}
        </p>
      )}
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
