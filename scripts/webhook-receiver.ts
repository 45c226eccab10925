// npm run webhook-receiver: a small local webhook receiver that verifies and prints what arrives.
//   WEBHOOK_SECRET=whsec_… npm run webhook-receiver         (listens on http://127.0.0.1:4000/webhooks)
//   WEBHOOK_RECEIVER_PORT=4001 to listen elsewhere.
// Signatures are checked with `standardwebhooks`, the Standard Webhooks reference library; a
// delivery is deduplicated by its webhook-id, as every receiver should (docs/webhooks.md).
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const port = Number(process.env.WEBHOOK_RECEIVER_PORT ?? 4000);
const secret = process.env.WEBHOOK_SECRET;
const verifier = secret ? new Webhook(secret) : undefined;
const seen = new Set<string>();

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const id = String(req.headers['webhook-id'] ?? '');
    let verdict = 'NOT VERIFIED (start me with WEBHOOK_SECRET=whsec_… to check signatures)';
    if (verifier) {
      try {
        verifier.verify(body, req.headers as Record<string, string>);
        verdict = 'signature verified';
      } catch (error) {
        process.stdout.write(`${new Date().toISOString()}  REJECTED ${id}: ${(error as Error).message}\n`);
        return void res.writeHead(400).end();
      }
    }
    const event = JSON.parse(body) as { type: string; data: { object: { id: string; status?: string; amount?: number } } };
    const object = event.data.object;
    const repeat = seen.has(id) ? '  (repeat: already handled)' : '';
    seen.add(id);
    process.stdout.write(
      `${new Date().toISOString()}  ${event.type.padEnd(28)} ${object.id}  status=${object.status ?? '-'} amount=${object.amount ?? '-'}  ${id}  ${verdict}${repeat}\n`,
    );
    res.writeHead(204).end();
  });
});

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`Webhook receiver on http://127.0.0.1:${port}/webhooks — add this URL as an endpoint in the console (Webhooks).\n`);
});
