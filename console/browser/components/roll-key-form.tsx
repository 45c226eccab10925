'use client';
import { useState, type FormEvent } from 'react';
import { consoleKeys } from '@/console/browser/queries/query-keys';
import { useIdempotentMutation } from '@/console/browser/queries/use-idempotent-mutation';
import type { ApiKey } from '@/lib/contract';
import { SecretShownOnce } from './secret-shown-once';
import { IntentStatus } from './intent-status';

type WithSecret = ApiKey & { secret: string | null };

/** How long the old secret key keeps working after a roll, as a merchant would choose it. */
const GRACE_PERIODS = [
  { seconds: 0, label: 'Stop it now' },
  { seconds: 3_600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 3 * 86_400, label: '3 days' },
  { seconds: 7 * 86_400, label: '7 days' },
];

/** Roll the secret key: a new one shown once; this console session moves to it; the old one works for the grace period. */
export function RollKeyForm({ retentionSeconds }: { retentionSeconds: number }) {
  const intent = useIdempotentMutation<{ expires_in_seconds: number }, WithSecret>({
    path: '/api/api-keys/roll',
    storageKey: 'console.roll-key-intent',
    invalidates: [consoleKeys.apiKeys()],
    retentionSeconds,
  });
  const [confirming, setConfirming] = useState<number | null>(null);
  const { mutation } = intent;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setConfirming(Number(new FormData(event.currentTarget).get('grace')));
  }

  if (mutation.isSuccess) {
    const { secret, replayed } = mutation.data;
    return (
      <div className="success" role="status">
        <SecretShownOnce
          secret={secret}
          replayed={replayed}
          noun="New secret key"
          use="Put it where your servers read their key; this console already uses it"
          getAnother="Roll again to get one."
        />
        <button
          type="button"
          onClick={() => {
            intent.reset();
            setConfirming(null);
          }}
        >
          Done
        </button>
      </div>
    );
  }
  const chosen = GRACE_PERIODS.find((g) => g.seconds === confirming);
  return (
    <form onSubmit={submit}>
      <label>
        The old key keeps working for
        <select name="grace" defaultValue={86_400} disabled={mutation.isPending || confirming !== null}>
          {GRACE_PERIODS.map((g) => (
            <option key={g.seconds} value={g.seconds}>
              {g.label}
            </option>
          ))}
        </select>
      </label>
      <IntentStatus intent={intent} />
      {chosen ? (
        <p className="actions">
          <span>
            {chosen.seconds === 0
              ? 'The current secret key stops working at once.'
              : `The current secret key stops working in ${chosen.label}.`}
          </span>
          <button
            type="button"
            className="danger"
            disabled={mutation.isPending}
            onClick={() => intent.send({ expires_in_seconds: chosen.seconds })}
          >
            Roll the secret key
          </button>
          <button type="button" className="secondary" disabled={mutation.isPending} onClick={() => setConfirming(null)}>
            Cancel
          </button>
        </p>
      ) : (
        <button type="submit">Roll secret key…</button>
      )}
    </form>
  );
}
