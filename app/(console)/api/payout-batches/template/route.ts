// GET /api/payout-batches/template: a CSV file to start a batch from, with the columns the batch page reads.
import { BATCH_TEMPLATE_CSV } from '@/console/browser/batch-csv';
import { sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async () => {
  return new Response(BATCH_TEMPLATE_CSV, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="payout-batch-template.csv"',
      'cache-control': 'no-store',
    },
  });
});
