'use client';
import { useState, type FormEvent } from 'react';
import { noScriptAction, useHydrated } from '@/lib/client/use-hydrated';
import { type PayoutInput, payoutInputSchema, TEST_BANK_CODES } from '@/lib/contract';

type Draft = { amount: string; bank_code: string; account_number: string };
export const emptyDraft: Draft = { amount: '', bank_code: '', account_number: '' };

/** Text in the fields to the API's input: whole units only, never a float. */
function toInput(d: Draft) {
  const digits = d.amount.replace(/[\s,_]/g, '');
  return {
    amount: digits === '' ? undefined : /^[0-9]{1,15}$/.test(digits) ? Number(digits) : NaN,
    bank_code: d.bank_code.trim().toUpperCase(),
    account_number: d.account_number.replace(/[\s-]/g, ''),
  };
}

/** The payout's fields, checked with the API's own schema before the confirmation step. */
export function PayoutFields({ initial, onReview }: { initial: Draft; onReview: (input: PayoutInput, draft: Draft) => void }) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const hydrated = useHydrated();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = payoutInputSchema.safeParse(toInput(draft));
    if (parsed.success) return onReview(parsed.data, draft);
    const next: typeof errors = {};
    for (const issue of parsed.error.issues) next[issue.path[0] as keyof Draft] ??= issue.message;
    setErrors(next);
  }

  const field = (name: keyof Draft, label: string, props: Record<string, string> = {}) => (
    <label>
      {label}
      <input
        id={`payout-${name}`}
        value={draft[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${name}-error` : undefined}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        autoComplete="off"
        {...props}
      />
      {errors[name] && (
        <span id={`${name}-error`} className="error">
          {errors[name]}
        </span>
      )}
    </label>
  );

  return (
    // Fields without `name` and a POST action: without the script no account number can leave the page.
    <form onSubmit={submit} noValidate method="post" action={noScriptAction('/dashboard')}>
      {field('amount', 'Amount', { inputMode: 'numeric' })}
      {field('bank_code', 'Bank code', { list: 'bank-codes' })}
      <datalist id="bank-codes">
        {TEST_BANK_CODES.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      {field('account_number', 'Account number', { inputMode: 'numeric' })}
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
