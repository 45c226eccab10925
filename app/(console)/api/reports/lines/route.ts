// GET /api/reports/lines?from&to: a statement's lines (list_balance_transactions over [from, to)) as a CSV file, every line, streamed page by page.
import { statementLinePages, statementLinesStream } from '@/console/server/routes/statement-csv';
import { queryObject, statementLinesQuery } from '@/console/server/routes/request-schemas';
import { sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ req, session }) => {
  const { from, to } = statementLinesQuery.parse(queryObject(req.url));
  return new Response(await statementLinesStream(statementLinePages(session.api, from, to)), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="statement-${from.slice(0, 10)}-${to.slice(0, 10)}.csv"`,
      'cache-control': 'no-store',
    },
  });
});
