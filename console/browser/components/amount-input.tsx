'use client';
import type { InputHTMLAttributes } from 'react';

/** Digits typed so far, with thousands separators; anything else (a decimal point, a letter) is left as typed, for the form to explain. */
export function groupThousands(text: string): string {
  if (!/^[0-9][0-9,\s]*$/.test(text)) return text;
  const digits = text.replace(/[,\s]/g, '').replace(/^0+(?=\d)/, '');
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The amount text to the exact integer sent, or NaN when it is not whole digits; undefined when empty. */
export function parseAmount(text: string): number | undefined {
  const digits = text.replace(/[\s,_]/g, '');
  if (digits === '') return undefined;
  return /^[0-9]{1,15}$/.test(digits) ? Number(digits) : NaN;
}

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  value: string;
  onValue: (text: string) => void;
  currency?: string;
};

/** An amount field that shows its currency and groups thousands as the merchant types. */
export function AmountInput({ value, onValue, currency = 'IDR', ...props }: Props) {
  return (
    <span className="amount-input">
      <span className="currency" aria-hidden="true">
        {currency}
      </span>
      <input inputMode="numeric" autoComplete="off" {...props} value={value} onChange={(e) => onValue(groupThousands(e.target.value))} />
    </span>
  );
}
