'use client';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ACCOUNT_NUMBER_PATTERN, TEST_BANK_CODES, type BankAccountValidation } from '../contract';
import { consoleFetch } from './console-fetch';

/**
 * The account holder's name as soon as a bank and a whole account number are
 * filled in (validate_bank_account, through the console's POST route: the number
 * never goes into a URL). Waits for typing to pause; the API keeps each result for
 * 24 hours, so looking again costs nothing.
 */
export function useAccountHolder(bankCode: string, accountNumber: string) {
  const ready = (TEST_BANK_CODES as readonly string[]).includes(bankCode) && ACCOUNT_NUMBER_PATTERN.test(accountNumber);
  const [settled, setSettled] = useState<{ bank: string; account: string } | null>(null);
  useEffect(() => {
    if (!ready) return setSettled(null);
    const timer = setTimeout(() => setSettled({ bank: bankCode, account: accountNumber }), 300);
    return () => clearTimeout(timer);
  }, [ready, bankCode, accountNumber]);
  const current = settled && settled.bank === bankCode && settled.account === accountNumber ? settled : null;
  const query = useQuery({
    queryKey: ['bank-account', current?.bank, current?.account],
    queryFn: () =>
      consoleFetch<BankAccountValidation>('/api/bank-accounts/validate', {
        method: 'POST',
        body: { bank_code: current!.bank, account_number: current!.account },
      }),
    enabled: current !== null,
    staleTime: 10 * 60_000,
    gcTime: 10 * 60_000,
    retry: 1,
  });
  /** Look up now, without waiting for typing to pause (the form was submitted). */
  const now = () => {
    if (ready && !current) setSettled({ bank: bankCode, account: accountNumber });
  };
  return {
    now,
    ready,
    checking: ready && (current === null || query.isPending),
    result: current ? query.data : undefined,
    error: current ? query.error : null,
  };
}
