// GET /docs/api: the API reference, rendered in the browser by Redoc from the OpenAPI document.
// A whole HTML document, not a React page: Redoc owns the DOM it renders into. The document is
// built here from the contract (the same as GET /v1/openapi.json), so the page needs no API process.
import { REDOC_PATH } from '@/console/server/routes/api-reference';
import { buildOpenApiDocument } from '@/lib/openapi';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  // proxy.ts made this page's CSP and passed it on in the request: its nonce lets our two scripts run.
  const nonce = /'nonce-([^']+)'/.exec(req.headers.get('content-security-policy') ?? '')?.[1] ?? '';
  // Inside a <script>: no '<' may close it early.
  const spec = JSON.stringify(buildOpenApiDocument()).replace(/</g, '\\u003c');
  const options = JSON.stringify({ expandResponses: '200', hideHostname: true, jsonSampleExpandLevel: 3, nativeScrollbars: true });
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>API reference · Merchant payments</title>
</head>
<body style="margin:0">
<div id="redoc"></div>
<script nonce="${nonce}" src="${REDOC_PATH}"></script>
<script nonce="${nonce}">Redoc.init(${spec}, ${options}, document.getElementById('redoc'));</script>
</body>
</html>`;
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}
