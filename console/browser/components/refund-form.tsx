'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { fieldMessage } from '@/console/browser/messages';
import { consoleKeys } from '@/console/browser/queries/query-keys';
import { useIdempotentMutation } from '@/console/browser/queries/use-idempotent-mutation';
import { refundFields, type Refund } from '@/lib/contract';
import { formatMoney } from '@/lib/format';
import { AmountInput, parseAmount } from './amount-input';
import { SentIntentStatus } from './intent-status';
import { StaleIntent } from './stale-intent';

type RefundInput = { amount: number; reason?: string };

/**
 * A refund intent from form to outcome: full or partial, a reason, a review step,
 * then one idempotency key for this intent (kept across retries and a reload until
 * a real answer). The amount reviewed is the amount sent, "full" included, so a
 * refund made meanwhile elsewhere is refused rather than a different amount refunded.
 */
export function RefundForm({
  sessionId,
  left,
  currency,
  retentionSeconds,
}: {
  sessionId: string;
  left: number;
  currency: string;
  retentionSeconds: number;
}) {
  const router = useRouter();
  const intent = useIdempotentMutation<RefundInput, Refund>({
    path: `/api/checkout-sessions/${encodeURIComponent(sessionId)}/refunds`,
    storageKey: `console.refund-intent.${sessionId}`,
    invalidates: [consoleKeys.refunds.ofSession(sessionId), consoleKeys.balance(), consoleKeys.checkoutSessions.all()],
    retentionSeconds,
  });
  const [kind, setKind] = useState<'full' | 'partial'>('full');
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [review, setReview] = useState<RefundInput | null>(null);
  const { mutation } = intent;
  const input = intent.sentInput ?? review;

  function toReview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = parseAmount(amountText);
    const amount = kind === 'full' ? { success: true as const, data: left } : refundFields.amount.safeParse(typed);
    if (!amount.success || amount.data === undefined)
      return setError(
        fieldMessage(
          'amount',
          { code: amount.success ? 'invalid_type' : amount.error.issues[0]!.code, input: typed },
          { min: 1, max: left },
        ),
      );
    if (amount.data > left) return setError(fieldMessage('amount', { code: 'too_big', input: typed }, { min: 1, max: left }));
    const text = reason.trim();
    const why = refundFields.reason.safeParse(text === '' ? undefined : text);
    if (!why.success) return setError(fieldMessage('reason', { code: why.error.issues[0]!.code, input: text }));
    setError(null);
    setReview({ amount: amount.data, ...(why.data ? { reason: why.data } : {}) });
  }

  const startOver = () => {
    intent.reset();
    setReview(null);
  };

  if (intent.staleIntent) {
    return (
      <StaleIntent
        what={`A refund of ${formatMoney(intent.staleIntent.amount, currency)}`}
        checkIn="the refunds below"
        onDismiss={intent.dismissStale}
      />
    );
  }

  if (!input) {
    if (left <= 0) return <p className="muted">Refunded in full: nothing is left to refund.</p>;
    return (
      <form onSubmit={toReview} noValidate aria-label="Refund" data-testid="refund-form">
        <label>
          Amount to refund
          <select name="refund-kind" value={kind} onChange={(e) => setKind(e.target.value === 'partial' ? 'partial' : 'full')}>
            <option value="full">Full: what is left, {formatMoney(left, currency)}</option>
            <option value="partial">Partial amount</option>
          </select>
        </label>
        {kind === 'partial' && (
          <div className="field">
            <label htmlFor="refund-amount">Amount (IDR)</label>
            <AmountInput id="refund-amount" value={amountText} onValue={setAmountText} aria-describedby="refund-amount-hint" />
            <span id="refund-amount-hint" className="field-hint">
              Up to {formatMoney(left, currency)}.
            </span>
          </div>
        )}
        <label>
          Reason (optional)
          <input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} autoComplete="off" maxLength={500} />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit">Review refund</button>
      </form>
    );
  }

  const sent = mutation.isPending || mutation.isError || mutation.isSuccess;
  return (
    <div className="confirm" aria-live="polite" data-testid="refund-review">
      <h3>{sent ? 'Refund' : 'Review the refund'}</h3>
      <dl>
        <dt>Amount</dt>
        <dd data-testid="refund-review-amount">{formatMoney(input.amount, currency)}</dd>
        <dt>Reason</dt>
        <dd>{input.reason ?? <span className="muted">none</span>}</dd>
      </dl>
      {!sent && <p className="hint">The amount leaves your available balance now and goes back to the customer&apos;s card.</p>}
      {intent.resumed && !intent.finished && (
        <p className="warning">A refund was being sent when the page was left. Asking the server what became of it…</p>
      )}
      {!sent && (
        <div className="actions">
          <button type="button" onClick={() => intent.send(input)}>
            Refund {formatMoney(input.amount, currency)}
          </button>
          <button type="button" className="secondary" onClick={() => setReview(null)}>
            Edit
          </button>
        </div>
      )}
      <SentIntentStatus
        intent={intent}
        input={input}
        noun="refund"
        safeAgain="Checking again cannot refund twice: the same idempotency key is reused."
        refusedTestId="refund-refused"
        onEdit={startOver}
      />
      {mutation.isSuccess && (
        <div className="success" role="status" data-testid="refund-created">
          <p>
            Refund {mutation.data.id} created: {mutation.data.status}.
            {mutation.data.replayed ? ' Replayed: an earlier attempt had already made it; nothing was refunded twice.' : ''}
          </p>
          <button
            type="button"
            onClick={() => {
              startOver();
              // The session's status and amount refunded are rendered on the server.
              router.refresh();
            }}
          >
            Done
          </button>
        </div>
      )}
    </div>
  );
}
