import { queryOptions } from '@tanstack/react-query';
import type { Balance, CheckoutSession, List, Payout, PayoutStatus } from '../upstream/schemas';
import { consoleFetch } from './console-fetch';
import { consoleKeys } from './query-keys';

/** Poll quickly while something is settling, slowly otherwise (a checkout may be paid at any time). */
const SETTLING_MS = 1_000;
const IDLE_MS = 5_000;

export type ConsoleBalance = Balance & { test_mode: boolean };

export const balanceQuery = () =>
  queryOptions({
    queryKey: consoleKeys.balance(),
    queryFn: () => consoleFetch<ConsoleBalance>('/api/balance'),
    refetchInterval: (q) => ((q.state.data?.pending_payouts ?? 0) > 0 ? SETTLING_MS : IDLE_MS),
  });

export const payoutsQuery = (status: PayoutStatus | 'all', limit = 20) =>
  queryOptions({
    queryKey: consoleKeys.payouts.list(status),
    queryFn: () => consoleFetch<List<Payout>>(`/api/payouts?limit=${limit}${status === 'all' ? '' : `&status=${status}`}`),
    refetchInterval: (q) => (q.state.data?.data.some((p) => p.status === 'pending') ? SETTLING_MS : IDLE_MS),
  });

export const payoutQuery = (id: string) =>
  queryOptions({
    queryKey: consoleKeys.payouts.detail(id),
    queryFn: () => consoleFetch<Payout>(`/api/payouts/${encodeURIComponent(id)}`),
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? SETTLING_MS : false),
  });

export const checkoutSessionsQuery = () =>
  queryOptions({
    queryKey: consoleKeys.checkoutSessions.all(),
    queryFn: () => consoleFetch<List<CheckoutSession>>('/api/checkout-sessions?limit=20'),
    refetchInterval: IDLE_MS,
  });
