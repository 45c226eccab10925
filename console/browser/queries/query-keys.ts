import type { ActionRequest, PayoutStatus } from '../../../lib/contract';

/** The payouts page's filter (list_payouts' and summarize_payouts' filter fields). */
export type PayoutListFilter = Omit<ActionRequest<'summarize_payouts'>, 'action'>;

/** Every react-query key of the console, from one place, so invalidation cannot miss one. */
export const consoleKeys = {
  balance: () => ['balance'] as const,
  payouts: {
    all: () => ['payouts'] as const,
    /** The newest `limit` payouts (one page: the dashboard). */
    list: (status: PayoutStatus | 'all', limit: number) => ['payouts', 'list', status, limit] as const,
    /** Payouts page after page ("Load more"): an infinite query, so never the same key as `list`. */
    pages: (filter: PayoutListFilter, limit: number) => ['payouts', 'pages', filter, limit] as const,
    detail: (id: string) => ['payouts', 'detail', id] as const,
    /** The count and total of a filter (summarize_payouts). */
    summary: (filter: PayoutListFilter) => ['payouts', 'summary', filter] as const,
  },
  payoutBatches: {
    detail: (id: string) => ['payout-batches', id] as const,
  },
  checkoutSessions: {
    all: () => ['checkout-sessions'] as const,
    pages: (limit: number) => ['checkout-sessions', 'pages', limit] as const,
  },
  /** A checkout session's refunds (its page). */
  refunds: {
    all: () => ['refunds'] as const,
    ofSession: (sessionId: string) => ['refunds', 'session', sessionId] as const,
  },
  apiKeys: () => ['api-keys'] as const,
  approvalPolicy: () => ['approval-policy'] as const,
  accountSettings: () => ['account-settings'] as const,
  webhooks: {
    endpoints: () => ['webhooks', 'endpoints'] as const,
    deliveries: (endpointId: string) => ['webhooks', 'deliveries', endpointId] as const,
  },
};
