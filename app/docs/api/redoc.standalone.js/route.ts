// GET /docs/api/redoc.standalone.js: Redoc's standalone bundle, from the installed npm package (no CDN).
import { redocBundle } from '@/console/server/routes/api-reference';

export const dynamic = 'force-dynamic';

export async function GET() {
  return new Response(await redocBundle(), {
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
    },
  });
}
