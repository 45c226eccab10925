import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { Balance, CheckoutSession, List, Payout, PayoutStatus, PayoutSummary, Refund } from '../../../lib/contract';
import { consoleFetch } from './console-fetch';
import { PAGE_SIZE, nextCursor, pageItems, pagePath } from './list-pages';
import { consoleKeys, type PayoutListFilter } from './query-keys';

/** Poll quickly while something is settling, slowly otherwise (a checkout may be paid at any time). */
const SETTLING_MS = 1_000;
const IDLE_MS = 5_000;

export type ConsoleBalance = Balance & { test_mode: boolean; low_balance_threshold: number | null };

const settling = (payouts: Payout[] | undefined) => (payouts?.some((p) => p.status === 'pending') ? SETTLING_MS : IDLE_MS);

export const balanceQuery = () =>
  queryOptions({
    queryKey: consoleKeys.balance(),
    queryFn: () => consoleFetch<ConsoleBalance>('/api/balance'),
    refetchInterval: (q) => ((q.state.data?.pending_payouts ?? 0) + (q.state.data?.pending_refunds ?? 0) > 0 ? SETTLING_MS : IDLE_MS),
  });

/** The newest `limit` payouts, one page. */
export const payoutsQuery = (status: PayoutStatus | 'all', limit = PAGE_SIZE) =>
  queryOptions({
    queryKey: consoleKeys.payouts.list(status, limit),
    queryFn: () => consoleFetch<List<Payout>>(pagePath('/api/payouts', { limit, status: status === 'all' ? undefined : status })),
    refetchInterval: (q) => settling(q.state.data?.data),
  });

/** Payouts of a filter page after page; a refetch (polling, invalidation) fetches every loaded page again from the first. */
export const payoutPagesQuery = (filter: PayoutListFilter, limit = PAGE_SIZE) =>
  infiniteQueryOptions({
    queryKey: consoleKeys.payouts.pages(filter, limit),
    queryFn: ({ pageParam }) => consoleFetch<List<Payout>>(pagePath('/api/payouts', { limit, starting_after: pageParam, ...filter })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    select: pageItems,
    refetchInterval: (q) => settling(q.state.data?.pages.flatMap((page) => page.data)),
  });

/** The count and total of a filter; refreshed like the list, as payouts settle and move between statuses. */
export const payoutSummaryQuery = (filter: PayoutListFilter) =>
  queryOptions({
    queryKey: consoleKeys.payouts.summary(filter),
    queryFn: () => consoleFetch<PayoutSummary>(pagePath('/api/payouts/summary', { ...filter })),
    refetchInterval: IDLE_MS,
  });

export const payoutQuery = (id: string) =>
  queryOptions({
    queryKey: consoleKeys.payouts.detail(id),
    queryFn: () => consoleFetch<Payout>(`/api/payouts/${encodeURIComponent(id)}`),
    // A payout waiting for approval may be decided from another screen: poll it slowly.
    refetchInterval: (q) =>
      q.state.data?.status === 'pending' ? SETTLING_MS : q.state.data?.status === 'awaiting_approval' ? IDLE_MS : false,
  });

/** Checkout sessions page after page. */
export const checkoutSessionPagesQuery = (limit = PAGE_SIZE) =>
  infiniteQueryOptions({
    queryKey: consoleKeys.checkoutSessions.pages(limit),
    queryFn: ({ pageParam }) =>
      consoleFetch<List<CheckoutSession>>(pagePath('/api/checkout-sessions', { limit, starting_after: pageParam })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    select: pageItems,
    refetchInterval: IDLE_MS,
  });

/** A checkout session's refunds (up to 100, newest first); quick polling while one is pending. */
export const sessionRefundsQuery = (sessionId: string) =>
  queryOptions({
    queryKey: consoleKeys.refunds.ofSession(sessionId),
    queryFn: () => consoleFetch<List<Refund>>(`/api/checkout-sessions/${encodeURIComponent(sessionId)}/refunds`),
    refetchInterval: (q) => (q.state.data?.data.some((r) => r.status === 'pending') ? SETTLING_MS : IDLE_MS),
  });
