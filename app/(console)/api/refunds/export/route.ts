// GET /api/refunds/export?status&from&to: the refunds page's filter as a CSV file, every row, newest first, streamed page by page.
import { dayInZone } from '@/lib/contract/time-zone';
import { readRefundView, refundFilterOf } from '@/console/browser/refund-view';
import { merchantTimeZone } from '@/console/server/data/merchant-zone';
import { refundPages, refundsCsvStream } from '@/console/server/routes/refunds-csv';
import { queryObject } from '@/console/server/routes/request-schemas';
import { sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ req, session }) => {
  const view = readRefundView(queryObject(req.url));
  const zone = await merchantTimeZone(session);
  return new Response(await refundsCsvStream(refundPages(session.api, refundFilterOf(view, zone))), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="refunds-${dayInZone(Date.now(), zone)}.csv"`,
      'cache-control': 'no-store',
    },
  });
});
