'use client';
import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { ErrorText } from './error-text';

type PagedQuery = Pick<
  UseInfiniteQueryResult<unknown, Error>,
  'hasNextPage' | 'isFetchingNextPage' | 'isFetchNextPageError' | 'error' | 'fetchNextPage'
>;

/** "Load more" under a list: there while the API has more, disabled while the next page loads; appends it. */
export function LoadMoreButton({ query, noun }: { query: PagedQuery; noun: string }) {
  if (!query.hasNextPage) return null;
  return (
    <div className="load-more">
      <button
        type="button"
        className="secondary"
        disabled={query.isFetchingNextPage}
        aria-busy={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
      >
        Load more
      </button>
      {query.isFetchNextPageError && (
        <p className="error" role="alert">
          More {noun} could not be loaded: {query.error && <ErrorText error={query.error} />}
        </p>
      )}
    </div>
  );
}
