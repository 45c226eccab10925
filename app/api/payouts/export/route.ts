// GET /api/payouts/export?q&status&from&to: the payouts page's filter as a CSV file (at most 10,000 rows, newest first).
import { PAYOUT_ID, payoutFilterOf, payoutViewQuery } from '@/lib/client/payout-view';
import { EXPORT_MAX_ROWS, payoutsCsv, payoutsForExport } from '@/lib/console/payouts-csv';
import { queryObject } from '@/lib/console/request-schemas';
import { sessionRoute } from '@/lib/console/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ req, session }) => {
  const view = payoutViewQuery.strict().parse(queryObject(req.url));
  // A payout id in the search box is that one payout.
  const { rows, truncated } = view.q && PAYOUT_ID.test(view.q)
    ? { rows: [(await session.api.getPayout(view.q)).data], truncated: false }
    : await payoutsForExport(session.api, payoutFilterOf(view));
  return new Response(payoutsCsv(rows), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="payouts-${new Date().toISOString().slice(0, 10)}.csv"`,
      'cache-control': 'no-store',
      'x-export-rows': String(rows.length),
      'x-export-truncated': truncated ? `true; at most ${EXPORT_MAX_ROWS} rows` : 'false',
    },
  });
});
