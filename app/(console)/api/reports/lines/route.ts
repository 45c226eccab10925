// GET /api/reports/lines?month=YYYY-MM (or ?from=YYYY-MM-DD&to=YYYY-MM-DD): the lines of the Reports page's statement
// (list_balance_transactions over the period in the merchant's zone) as a CSV file named for the period, every line,
// streamed page by page, times with the merchant's offset.
import { periodInstants, statementFileName } from '@/console/browser/report-period';
import { merchantTimeZone } from '@/console/server/data/merchant-zone';
import { statementLinePages, statementLinesStream } from '@/console/server/routes/statement-csv';
import { queryObject, statementLinesQuery } from '@/console/server/routes/request-schemas';
import { sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ req, session }) => {
  const query = statementLinesQuery.parse(queryObject(req.url));
  const period = 'month' in query ? { month: query.month } : { fromDate: query.from, toDate: query.to };
  const zone = await merchantTimeZone(session);
  const { from, to } = periodInstants(period, zone);
  return new Response(await statementLinesStream(statementLinePages(session.api, from, to), zone), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${statementFileName(period)}"`,
      'cache-control': 'no-store',
    },
  });
});
