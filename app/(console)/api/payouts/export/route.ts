// GET /api/payouts/export?q&status&from&to: the payouts page's filter as a CSV file, every row, newest first, streamed page by page.
import { dayInZone } from '@/lib/contract/time-zone';
import { isPayoutId, payoutFilterOf, payoutViewQuery } from '@/console/browser/payout-view';
import { merchantTimeZone } from '@/console/server/data/merchant-zone';
import { onePayout, payoutPages, payoutsCsvStream } from '@/console/server/routes/payouts-csv';
import { queryObject } from '@/console/server/routes/request-schemas';
import { sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ req, session }) => {
  const view = payoutViewQuery.strict().parse(queryObject(req.url));
  const zone = await merchantTimeZone(session);
  // A payout id in the search box is that one payout.
  const pages = isPayoutId(view.q) ? onePayout(session.api, view.q) : payoutPages(session.api, payoutFilterOf(view, zone));
  return new Response(await payoutsCsvStream(pages), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="payouts-${dayInZone(Date.now(), zone)}.csv"`,
      'cache-control': 'no-store',
    },
  });
});
