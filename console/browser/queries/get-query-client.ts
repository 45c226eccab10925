import { QueryClient, isServer } from '@tanstack/react-query';
import { retryRead } from './retry-policy';

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 2_000,
        // The route already retried the payment API (retry-policy.ts): only a lost answer is asked again.
        retry: retryRead,
      },
    },
  });
}

let browserClient: QueryClient | undefined;

/** One client per browser tab; a fresh one per server render. */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}
