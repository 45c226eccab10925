import { QueryClient, isServer } from '@tanstack/react-query';
import { ConsoleRequestError } from './console-fetch';

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 2_000,
        // Reads are safe to retry; a 4xx (signed out, bad filter) will not change by retrying.
        retry: (count, error) => count < 3 && (!(error instanceof ConsoleRequestError) || error.outcomeUnknown),
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
