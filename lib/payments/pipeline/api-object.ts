/** What every answer is made of: times as ISO 8601 in UTC, and cursor pages. */

/** A time as the API answers it: ISO 8601, UTC. */
export const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** Cursor pages, newest first: the shape every list_* action returns. */
export const listObject = <T>(data: T[], hasMore: boolean) => ({ object: 'list' as const, data, has_more: hasMore });

/** The id of the object an answer is about: none for a list or an answer without one (a balance). */
export function objectIdOf(answer: object): string | null {
  const { object, id } = answer as { object?: unknown; id?: unknown };
  return typeof object === 'string' && object !== 'list' && typeof id === 'string' ? id : null;
}
