'use client';
import { useState, type FormEvent, type ReactNode } from 'react';
import { BANKS } from '@/console/browser/banks';
import { fieldMessage } from '@/console/browser/messages';
import { noScriptAction, useHydrated } from '@/console/browser/use-hydrated';
import { formatMoney } from '@/lib/format';
import { PAYOUT_LIMITS, type PayoutInput, payoutInputSchema } from '@/lib/contract';
import { useAccountHolder } from '@/console/browser/queries/use-account-holder';
import { AmountInput, parseAmount } from './amount-input';
import { ErrorText } from './error-text';

type Draft = { amount: string; bank_code: string; account_number: string };
export const emptyDraft: Draft = { amount: '', bank_code: '', account_number: '' };

/** Text in the fields to the API's input: whole units only, never a float. */
function toInput(d: Draft) {
  return {
    amount: parseAmount(d.amount),
    bank_code: d.bank_code,
    account_number: d.account_number.replace(/[\s-]/g, ''),
  };
}

/** The payout's fields, checked with the API's own schema before the confirmation step; messages from console/browser/messages. */
export function PayoutFields({ initial, onReview }: { initial: Draft; onReview: (input: PayoutInput, draft: Draft) => void }) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const hydrated = useHydrated();
  const set = (name: keyof Draft) => (value: string) => setDraft({ ...draft, [name]: value });
  const holder = useAccountHolder(draft.bank_code, toInput(draft).account_number);
  const [holderError, setHolderError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = toInput(draft);
    const parsed = payoutInputSchema.safeParse(input);
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const name = issue.path[0] as keyof Draft;
        next[name] ??= fieldMessage(name, { code: issue.code, input: input[name] }) ?? issue.message;
      }
      return setErrors(next);
    }
    // Submitted before the look-up answered: the review waits for it (the same cache entry, never a second look-up).
    const result = await holder.lookUp(parsed.data.bank_code, parsed.data.account_number).catch(() => undefined);
    if (!result) return setHolderError('The account could not be looked up. Try again in a moment.');
    // The review shows whose account it is; an account the bank does not know stops here.
    if (result.status === 'invalid')
      return setHolderError('This account does not exist at the bank. Check the bank and the account number.');
    setHolderError(null);
    // Sent along: the payout is refused should the bank's name have changed since this look-up.
    onReview({ ...parsed.data, account_holder_name: result.account_holder_name! }, draft);
  }

  // The error and hint sit outside the label: the field's name stays its label alone.
  const field = (name: keyof Draft, label: string, control: (a11y: Record<string, unknown>) => ReactNode, hint?: string) => {
    const describedBy = [hint && `payout-${name}-hint`, errors[name] && `payout-${name}-error`].filter(Boolean).join(' ') || undefined;
    return (
      <div className="field">
        <label htmlFor={`payout-${name}`}>{label}</label>
        {control({ id: `payout-${name}`, 'aria-invalid': errors[name] ? true : undefined, 'aria-describedby': describedBy })}
        {hint && (
          <span id={`payout-${name}-hint`} className="field-hint">
            {hint}
          </span>
        )}
        {errors[name] && (
          <span id={`payout-${name}-error`} className="error" data-testid={`payout-${name}-error`}>
            {errors[name]}
          </span>
        )}
      </div>
    );
  };

  return (
    // Fields without `name` and a POST action: without the script no account number can leave the page.
    <form onSubmit={submit} noValidate method="post" action={noScriptAction('/dashboard')}>
      {field(
        'amount',
        'Amount (IDR)',
        (a11y) => (
          <AmountInput value={draft.amount} onValue={set('amount')} {...a11y} />
        ),
        `From ${formatMoney(PAYOUT_LIMITS.min, 'IDR')} to ${formatMoney(PAYOUT_LIMITS.max, 'IDR')} per payout.`,
      )}
      {field('bank_code', 'Bank', (a11y) => (
        <select value={draft.bank_code} onChange={(e) => set('bank_code')(e.target.value)} {...a11y}>
          <option value="">Choose a bank…</option>
          {BANKS.map((b) => (
            <option key={b.code} value={b.code}>
              {b.name}
            </option>
          ))}
        </select>
      ))}
      {field('account_number', 'Account number', (a11y) => (
        <input
          value={draft.account_number}
          onChange={(e) => set('account_number')(e.target.value)}
          inputMode="numeric"
          autoComplete="off"
          {...a11y}
        />
      ))}
      <p aria-live="polite" data-testid="account-holder-lookup">
        {holder.result?.status === 'valid' && (
          <>
            Account holder: <strong data-testid="account-holder">{holder.result.account_holder_name}</strong>
          </>
        )}
        {holder.result?.status === 'invalid' && (
          <span className="error" data-testid="account-invalid">
            This account does not exist at the bank ({holder.result.failure_code}).
          </span>
        )}
        {holder.ready && !holder.result && !holder.error && <span className="muted">Looking up the account holder…</span>}
        {holder.error && (
          <span className="error">
            The account could not be looked up: <ErrorText error={holder.error} />
          </span>
        )}
      </p>
      {holderError && (
        <p className="error" role="alert" data-testid="account-holder-error">
          {holderError}
        </p>
      )}
      <noscript>
        <p className="error">Sending a payout needs JavaScript.</p>
      </noscript>
      <button type="submit" disabled={!hydrated}>
        Review payout
      </button>
    </form>
  );
}

export type { Draft };
