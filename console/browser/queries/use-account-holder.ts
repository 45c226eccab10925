'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ACCOUNT_NUMBER_PATTERN, TEST_BANK_CODES, type BankAccountValidation } from '../../../lib/contract';
import { consoleFetch } from './console-fetch';

/** One look-up's key and fetch, shared by the typing-driven query and the submit-driven fetch (one cache entry). */
const lookupOptions = (bank: string, account: string) => ({
  queryKey: ['bank-account', bank, account],
  queryFn: () =>
    consoleFetch<BankAccountValidation>('/api/bank-accounts/validate', {
      method: 'POST',
      body: { bank_code: bank, account_number: account },
    }),
  staleTime: 10 * 60_000,
  gcTime: 10 * 60_000,
});

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
    // Not ready: nothing to wait for (a settled look-up only counts while it matches the fields, below).
    if (!ready) return;
    const timer = setTimeout(() => setSettled({ bank: bankCode, account: accountNumber }), 300);
    return () => clearTimeout(timer);
  }, [ready, bankCode, accountNumber]);
  const current = settled && settled.bank === bankCode && settled.account === accountNumber ? settled : null;
  const query = useQuery({ ...lookupOptions(current?.bank ?? '', current?.account ?? ''), enabled: current !== null, retry: 1 });
  const queryClient = useQueryClient();
  /** The answer now, without waiting for typing to pause (the form was submitted): the cached one, or a look-up. */
  const lookUp = (bank: string, account: string) => queryClient.fetchQuery({ ...lookupOptions(bank, account), retry: 1 });
  return {
    lookUp,
    ready,
    checking: ready && (current === null || query.isPending),
    result: current ? query.data : undefined,
    error: current ? query.error : null,
  };
}
