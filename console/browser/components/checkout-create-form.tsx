'use client';
import { useState, type FormEvent } from 'react';
import { consoleKeys } from '@/console/browser/queries/query-keys';
import { useIdempotentMutation } from '@/console/browser/queries/use-idempotent-mutation';
import { fieldMessage } from '@/console/browser/messages';
import { CHECKOUT_LIMITS, checkoutFields, type CheckoutSession } from '@/lib/contract';
import { formatMoney } from '@/lib/format';
import { AmountInput, parseAmount } from './amount-input';
import { CopyLink } from './copy-link';
import { IntentStatus } from './intent-status';
import { StaleIntent } from './stale-intent';

type CheckoutInput = { amount: number; description?: string };

/** Creates a checkout session; one idempotency key per intent, as for payouts. */
export function CheckoutCreateForm({ retentionSeconds }: { retentionSeconds: number }) {
  const intent = useIdempotentMutation<CheckoutInput, CheckoutSession>({
    path: '/api/checkout-sessions',
    storageKey: 'console.checkout-intent',
    invalidates: [consoleKeys.checkoutSessions.all()],
    retentionSeconds,
  });
  const [error, setError] = useState<string | null>(null);
  const [amountText, setAmountText] = useState('');
  const { mutation } = intent;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const amountInput = parseAmount(amountText);
    const amount = checkoutFields.amount.safeParse(amountInput);
    const text = String(form.get('description') ?? '').trim();
    const description = checkoutFields.description.safeParse(text === '' ? undefined : text);
    if (!amount.success)
      return setError(fieldMessage('amount', { code: amount.error.issues[0]!.code, input: amountInput }, CHECKOUT_LIMITS));
    if (!description.success) return setError(fieldMessage('description', { code: description.error.issues[0]!.code, input: text }));
    setError(null);
    intent.send({ amount: amount.data, ...(description.data ? { description: description.data } : {}) });
  }

  if (intent.staleIntent) {
    return <StaleIntent what="A checkout session" checkIn="the list below" onDismiss={intent.dismissStale} />;
  }

  if (mutation.isSuccess) {
    return (
      <div className="success" role="status">
        <p>Checkout session created{mutation.data.replayed ? ' (replayed: an earlier attempt had already created it)' : ''}.</p>
        <CopyLink url={mutation.data.url} />
        <button type="button" onClick={intent.reset}>
          New checkout session
        </button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="checkout-amount">Amount (IDR)</label>
        <AmountInput
          id="checkout-amount"
          value={amountText}
          onValue={setAmountText}
          disabled={mutation.isPending}
          aria-describedby="checkout-amount-hint"
        />
        <span id="checkout-amount-hint" className="field-hint">
          From {formatMoney(CHECKOUT_LIMITS.min, 'IDR')} to {formatMoney(CHECKOUT_LIMITS.max, 'IDR')}.
        </span>
      </div>
      <label>
        Description
        <input name="description" autoComplete="off" maxLength={500} disabled={mutation.isPending} />
      </label>
      <IntentStatus error={error} intent={intent} limits={CHECKOUT_LIMITS} />
      <button type="submit" disabled={mutation.isPending}>
        Create checkout session
      </button>
    </form>
  );
}
