'use client';
import Link from 'next/link';
import { useState } from 'react';
import { consoleKeys } from '@/console/browser/queries/query-keys';
import { useIdempotentMutation } from '@/console/browser/queries/use-idempotent-mutation';
import { formatMoney } from '@/lib/format';
import { maskAccountNumber, type Payout, type PayoutInput } from '@/lib/contract';
import { emptyDraft, PayoutFields, type Draft } from './payout-fields';
import { SentIntentStatus } from './intent-status';
import { StaleIntent } from './stale-intent';

/**
 * A payout intent from form to outcome: fill in, confirm, send. Once sent, the
 * intent keeps its idempotency key until a real answer arrives; a lost response
 * shows as "outcome unknown" and is asked again with the same key.
 */
export function PayoutPanel({ currency, retentionSeconds }: { currency: string; retentionSeconds: number }) {
  const intent = useIdempotentMutation<PayoutInput, Payout>({
    path: '/api/payouts',
    storageKey: 'console.payout-intent',
    invalidates: [consoleKeys.balance(), consoleKeys.payouts.all()],
    retentionSeconds,
  });
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [review, setReview] = useState<PayoutInput | null>(null);
  const { mutation } = intent;
  const input = intent.sentInput ?? review;

  const startOver = (keepDraft: boolean) => {
    intent.reset();
    setReview(null);
    if (!keepDraft) setDraft(emptyDraft);
  };

  if (intent.staleIntent) {
    const stale = intent.staleIntent;
    return (
      <StaleIntent
        what={`A payout of ${formatMoney(stale.amount, currency)} to ${stale.bank_code} ${maskAccountNumber(stale.account_number)}`}
        checkIn={
          <>
            the <Link href="/payouts">payouts list</Link>
          </>
        }
        onDismiss={intent.dismissStale}
      />
    );
  }

  if (!input) {
    return <PayoutFields key={intent.idempotencyKey} initial={draft} onReview={(i, d) => (setReview(i), setDraft(d))} />;
  }

  const sent = mutation.isPending || mutation.isError || mutation.isSuccess;
  return (
    <div className="confirm" aria-live="polite">
      <h3>{sent ? 'Payout' : 'Confirm the payout'}</h3>
      <dl>
        <dt>Amount</dt>
        <dd data-testid="confirm-amount">{formatMoney(input.amount, currency)}</dd>
        <dt>Bank</dt>
        <dd>{input.bank_code}</dd>
        <dt>Account</dt>
        <dd data-testid="confirm-account">{maskAccountNumber(input.account_number)}</dd>
        {input.account_holder_name && (
          <>
            <dt>Account holder</dt>
            <dd data-testid="confirm-holder">{input.account_holder_name}</dd>
          </>
        )}
      </dl>
      {intent.resumed && !intent.finished && (
        <p className="warning">A payout was being sent when the page was left. Asking the server what became of it…</p>
      )}
      {!sent && (
        <div className="actions">
          <button type="button" onClick={() => intent.send(input)}>
            Send payout
          </button>
          <button type="button" className="secondary" onClick={() => setReview(null)}>
            Edit
          </button>
        </div>
      )}
      <SentIntentStatus
        intent={intent}
        input={input}
        noun="payout"
        safeAgain="No second payout can be sent by checking again: the same idempotency key is reused."
        refusedTestId="payout-refused"
        onEdit={() => startOver(true)}
      />
      {mutation.isSuccess && (
        <div className="success" role="status">
          <p>
            Payout <Link href={`/payouts/${mutation.data.id}`}>{mutation.data.id}</Link> created: {mutation.data.status}.
          </p>
          {mutation.data.status === 'awaiting_approval' && (
            <p data-testid="awaits-approval">
              It waits for a second person to approve it in Approvals; nothing goes to the bank before that.
            </p>
          )}
          {mutation.data.replayed && (
            <p data-testid="replayed">Replayed: an earlier attempt had already created this payout; nothing was sent twice.</p>
          )}
          <button type="button" onClick={() => startOver(false)}>
            New payout
          </button>
        </div>
      )}
    </div>
  );
}
