'use client';
import { useState, type FormEvent } from 'react';
import { consoleKeys } from '@/console/browser/queries/query-keys';
import { useIdempotentMutation } from '@/console/browser/queries/use-idempotent-mutation';
import { formatMoney } from '@/lib/format';
import type { PayoutApprovalPolicy } from '@/lib/contract';
import { AmountInput, parseAmount } from './amount-input';
import { ErrorText } from './error-text';

type PolicyInput = { required: boolean; above_amount: number; for_keys: 'restricted' | 'all' };

/** The payout approval policy: on or off, the amount above which payouts wait, and whose payouts. One save, one idempotency key. */
export function ApprovalPolicyForm({ initial, retentionSeconds }: { initial: PayoutApprovalPolicy; retentionSeconds: number }) {
  const intent = useIdempotentMutation<PolicyInput, PayoutApprovalPolicy>({
    path: '/api/approval-policy',
    storageKey: 'console.approval-policy-intent',
    invalidates: [consoleKeys.approvalPolicy()],
    retentionSeconds,
  });
  const [required, setRequired] = useState(initial.required);
  const [above, setAbove] = useState(initial.above_amount === 0 ? '' : String(initial.above_amount));
  const [forKeys, setForKeys] = useState(initial.for_keys);
  const [error, setError] = useState<string | null>(null);
  const { mutation } = intent;

  function submit(event: FormEvent) {
    event.preventDefault();
    const amount = above.trim() === '' ? 0 : parseAmount(above);
    if (amount === undefined || !Number.isSafeInteger(amount))
      return setError('Enter a whole number of rupiah, or leave it empty for every payout.');
    setError(null);
    intent.send({ required, above_amount: amount, for_keys: forKeys });
  }

  const current = mutation.data ?? initial;

  return (
    <form onSubmit={submit} noValidate>
      <p data-testid="policy-now">
        {current.required
          ? `Now: payouts ${current.above_amount > 0 ? `above ${formatMoney(current.above_amount, 'IDR')} ` : ''}made by ${current.for_keys === 'all' ? 'any key' : 'restricted keys'} wait for approval.`
          : 'Now: payouts leave at once; none waits for approval.'}
      </p>
      <div className="field">
        <label>
          <input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} /> Payouts need a second key&apos;s
          approval
        </label>
      </div>
      <div className="field">
        <label htmlFor="policy-above">Only above this amount (IDR)</label>
        <AmountInput
          id="policy-above"
          value={above}
          onValue={setAbove}
          aria-describedby={error ? 'policy-above-error' : 'policy-above-hint'}
          aria-invalid={error ? true : undefined}
        />
        <span id="policy-above-hint" className="field-hint">
          Empty: every payout.
        </span>
        {error && (
          <span id="policy-above-error" className="error">
            {error}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="policy-for-keys">Whose payouts</label>
        {/* A select, not radios: every control of a console page is reached by Tab. */}
        <select id="policy-for-keys" value={forKeys} onChange={(e) => setForKeys(e.target.value === 'all' ? 'all' : 'restricted')}>
          <option value="restricted">Restricted keys only</option>
          <option value="all">Every key, the secret key too</option>
        </select>
      </div>
      {mutation.isSuccess ? (
        <p className="success" role="status">
          Saved: payouts made from now on follow it.{' '}
          <button type="button" className="secondary" onClick={intent.reset}>
            Change it again
          </button>
        </p>
      ) : (
        <button type="submit" disabled={mutation.isPending}>
          Save policy
        </button>
      )}
      {mutation.isPending && (
        <p className="muted" role="status">
          Saving…
        </p>
      )}
      {mutation.isError && (
        <p className="error" role="alert">
          Not saved: <ErrorText error={mutation.error} />
        </p>
      )}
    </form>
  );
}
