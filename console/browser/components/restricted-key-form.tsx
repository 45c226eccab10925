'use client';
import { useState, type FormEvent } from 'react';
import { fieldMessage } from '@/console/browser/messages';
import { consoleKeys } from '@/console/browser/queries/query-keys';
import { useIdempotentMutation } from '@/console/browser/queries/use-idempotent-mutation';
import { ACTIONS, PERMISSIONS, type ApiKey } from '@/lib/contract';
import { AmountInput, parseAmount } from './amount-input';
import { SecretShownOnce } from './secret-shown-once';
import { IntentStatus } from './intent-status';

type WithSecret = ApiKey & { secret: string | null };
type CreateInput = { name: string; permissions: string[]; max_payout_amount?: number };

/** What each permission lets a restricted key do, in words. */
const PERMISSION_TEXT: Record<(typeof PERMISSIONS)[number], string> = {
  'balance:read': 'See the balance and its history',
  'payouts:read': 'See payouts and batches',
  'payouts:write': 'Send payouts and batches',
  'checkout_sessions:read': 'See checkout sessions',
  'checkout_sessions:write': 'Create and expire checkout sessions',
  'events:read': 'Read events',
  'webhooks:write': 'Manage webhook endpoints and resend events',
  'requests:read': 'Read the request log',
  'refunds:read': 'See refunds',
  'refunds:write': 'Refund payments',
  'payouts:approve': 'Approve or reject payouts other keys made',
  'sandboxes:write': 'Create, reset and delete test sandboxes',
};

/** Make a restricted key: a name, permissions, an optional payout limit; its secret is shown once. */
export function RestrictedKeyForm({ retentionSeconds }: { retentionSeconds: number }) {
  const intent = useIdempotentMutation<CreateInput, WithSecret>({
    path: '/api/api-keys',
    storageKey: 'console.restricted-key-intent',
    invalidates: [consoleKeys.apiKeys()],
    retentionSeconds,
  });
  const [limit, setLimit] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { mutation } = intent;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { name, permissions, max_payout_amount } = ACTIONS.create_restricted_key.request.shape;
    const parsedName = name.safeParse(String(form.get('name') ?? ''));
    if (!parsedName.success) return setError(fieldMessage('name', parsedName.error.issues[0]!));
    const chosen = permissions.safeParse(form.getAll('permissions').map(String));
    if (!chosen.success) return setError(fieldMessage('permissions', chosen.error.issues[0]!));
    const amount = parseAmount(limit);
    const limitIssue = amount === undefined ? undefined : max_payout_amount.safeParse(amount).error?.issues[0];
    if (limitIssue) return setError(fieldMessage('max_payout_amount', limitIssue));
    setError(null);
    intent.send({ name: parsedName.data, permissions: chosen.data, ...(amount !== undefined ? { max_payout_amount: amount } : {}) });
  }

  if (mutation.isSuccess) {
    const { secret, name, replayed } = mutation.data;
    return (
      <div className="success" role="status">
        <p>Restricted key “{name}” created.</p>
        <SecretShownOnce
          secret={secret}
          replayed={replayed}
          noun="Its key"
          use="Hand it to the person or system that needs it; it cannot be shown again"
          getAnother="Revoke the key and create another."
        />
        <button
          type="button"
          onClick={() => {
            intent.reset();
            setLimit('');
          }}
        >
          Done
        </button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <label>
        Name
        <input name="name" maxLength={100} autoComplete="off" placeholder="Support — Ana" disabled={mutation.isPending} />
      </label>
      <fieldset>
        <legend>Permissions</legend>
        {PERMISSIONS.map((p) => (
          <label className="check" key={p}>
            <input type="checkbox" name="permissions" value={p} />
            <span>
              {PERMISSION_TEXT[p]} <code>{p}</code>
            </span>
          </label>
        ))}
      </fieldset>
      <label>
        Payout limit (optional)
        <AmountInput
          name="max_payout_amount"
          value={limit}
          onValue={setLimit}
          aria-describedby="limit-hint"
          disabled={mutation.isPending}
        />
      </label>
      <p className="hint" id="limit-hint">
        A payout above it with this key is refused and nothing is debited.
      </p>
      <IntentStatus error={error} intent={intent} />
      <button type="submit" disabled={mutation.isPending}>
        Create restricted key
      </button>
    </form>
  );
}
