import 'server-only';
import type { List } from '../../../lib/contract';
import { nextCursor } from '../../browser/queries/list-pages';

/**
 * Every page of a cursor list, newest first, one API page at a time (pages stay stable while rows are
 * added): `read(after)` asks for the page after the item `after`, or the first page.
 */
export async function* cursorPages<T extends { id: string }>(read: (after: string | undefined) => Promise<List<T>>): AsyncGenerator<T[]> {
  let after: string | undefined;
  do {
    const page = await read(after);
    if (page.data.length > 0) yield page.data;
    after = nextCursor(page);
  } while (after);
}

/**
 * Pages of rows as one CSV stream with no cap: the header, then each page as it is read. The first
 * page is read before this resolves, so that a refusal (a revoked key, the API down) is the route's
 * error answer rather than a broken file; the rest is pull-based, so a slow client slows the reading
 * (one page in memory at a time) and a client that goes away stops it.
 */
export async function csvStream<T>(
  pages: AsyncIterator<T[]>,
  toCsv: (rows: T[], header: boolean) => string,
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  let next: IteratorResult<T[]> | undefined = await pages.next();
  let first = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const page = next ?? (await pages.next());
        next = undefined;
        if (page.done) {
          if (first) controller.enqueue(encoder.encode(toCsv([], true)));
          controller.close();
          return;
        }
        const chunk = toCsv(page.value, first);
        controller.enqueue(encoder.encode(first ? chunk : `\r\n${chunk}`));
        first = false;
      },
      async cancel() {
        await pages.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
