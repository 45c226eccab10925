// POST /api/no-script?back=/path: where console forms land if submitted without their script.
// Nothing is read or done; the browser goes back to the page (303), which says it needs JavaScript.
import { consoleRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const POST = consoleRoute({ mutates: true }, async ({ req }) => {
  const back = new URL(req.url).searchParams.get('back') ?? '/';
  // Only a path of this site: never an absolute or protocol-relative URL.
  const target = /^\/(?![/\\])[\x21-\x7e]*$/.test(back) ? back : '/';
  return new Response(null, { status: 303, headers: { location: target, 'cache-control': 'no-store' } });
});
