import type { PayoutStatus } from '../contract';

/** Every react-query key of the console, from one place, so invalidation cannot miss one. */
export const consoleKeys = {
  balance: () => ['balance'] as const,
  payouts: {
    all: () => ['payouts'] as const,
    /** The newest `limit` payouts (one page: the dashboard). */
    list: (status: PayoutStatus | 'all', limit: number) => ['payouts', 'list', status, limit] as const,
    /** Payouts page after page ("Load more"): an infinite query, so never the same key as `list`. */
    pages: (status: PayoutStatus | 'all', limit: number) => ['payouts', 'pages', status, limit] as const,
    detail: (id: string) => ['payouts', 'detail', id] as const,
  },
  payoutBatches: {
    detail: (id: string) => ['payout-batches', id] as const,
  },
  checkoutSessions: {
    all: () => ['checkout-sessions'] as const,
    pages: (limit: number) => ['checkout-sessions', 'pages', limit] as const,
  },
  apiKeys: () => ['api-keys'] as const,
  webhooks: {
    endpoints: () => ['webhooks', 'endpoints'] as const,
    deliveries: (endpointId: string) => ['webhooks', 'deliveries', endpointId] as const,
  },
};
