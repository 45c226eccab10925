import type { PayoutStatus } from '../upstream/schemas';

/** Every react-query key of the console, from one place, so invalidation cannot miss one. */
export const consoleKeys = {
  balance: () => ['balance'] as const,
  payouts: {
    all: () => ['payouts'] as const,
    list: (status: PayoutStatus | 'all') => ['payouts', 'list', status] as const,
    detail: (id: string) => ['payouts', 'detail', id] as const,
  },
  checkoutSessions: {
    all: () => ['checkout-sessions'] as const,
  },
};
