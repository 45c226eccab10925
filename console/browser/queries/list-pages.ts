import type { InfiniteData } from '@tanstack/react-query';
import type { List } from '../../../lib/contract';

/**
 * Cursor pagination of the console's lists: pages of PAGE_SIZE, newest first, each
 * page asked for with `starting_after` = the id of the last item already shown.
 */
export const PAGE_SIZE = 20;

/** A console list route's address for one page (undefined parameters are left out). */
export function pagePath(route: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, String(value));
  return `${route}?${query}`;
}

/** The cursor of the page after `page`, or undefined when the API says there is no more. */
export const nextCursor = <T extends { id: string }>(page: List<T>): string | undefined =>
  page.has_more ? page.data[page.data.length - 1]?.id : undefined;

/** Every loaded item, page after page. */
export const pageItems = <T>(data: InfiniteData<List<T>, unknown>): T[] => data.pages.flatMap((page) => page.data);

/** Cached pages cut back to the first, so a list shown again starts from the top (nothing cached: nothing written). */
export const firstPageOnly = <T, P>(data: InfiniteData<T, P> | undefined): InfiniteData<T, P> | undefined =>
  data && { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) };
