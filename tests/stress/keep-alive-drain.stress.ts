// SIGTERM under continuous keep-alive load (a rolling deploy as a load balancer sees it): 16 clients
// send get_balance and withdraw back to back, each on a kept-alive connection, with no pause. Every
// request sent on an accepted connection must be answered (no ECONNRESET, no 5xx); a client learns
// the instance is going from `Connection: close`, then from a refused connect, and goes elsewhere.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { API_PATH } from '../../testing/api-path';
import { DEMO_KEY, type ServerKind } from '../../testing/server-process';
import { Deployment, ledgerCheck, stressBackends } from './deployment';
import { recordFigures, STRESS } from './figures';
import { expectLedgerExact } from './ledger-assertions';

const CLIENTS = 16;
const AMOUNT = 100;
const backend = stressBackends[stressBackends.length - 1]!;

interface Run {
  kind: ServerKind;
  cleanExit: boolean;
  answered: number;
  answeredAfterSignal: number;
  connectionClose: number;
  fiveXX: number;
  resets: string[];
  refused: number;
  paid: number;
  msToExit: number;
}

/** One POST to the API on the agent's connection. */
function post(
  agent: http.Agent,
  port: number,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; connection?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: API_PATH,
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        res.once('error', reject);
      },
    );
    req.once('error', (error) => reject(Object.assign(error, { reused: req.reusedSocket })));
    req.end(body);
  });
}

/** One instance, 16 continuous clients, SIGTERM after `loadMs`; the clients run until the instance refuses them. */
async function drainOnce(kind: ServerKind, run: number, loadMs: number): Promise<Run> {
  const d = await Deployment.create(backend, [kind]);
  try {
    const server = d.servers[0]!;
    const { merchantId, available: before } = await d.balance();
    const r: Run = {
      kind,
      cleanExit: false,
      answered: 0,
      answeredAfterSignal: 0,
      connectionClose: 0,
      fiveXX: 0,
      resets: [],
      refused: 0,
      paid: 0,
      msToExit: 0,
    };
    let signalled = false;
    let signalAt = 0;
    const perClient = Array<number>(CLIENTS).fill(0);
    const client = async (c: number) => {
      // A client of its own with one kept-alive connection, as a merchant's server keeps one.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = 0; ; i++) {
          const withdraw = i % 2 === 1;
          const headers: Record<string, string> = { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' };
          if (withdraw) headers['x-service-idempotency'] = `drain-${run}-${c}-${i}`;
          const body = JSON.stringify(
            withdraw ? { action: 'withdraw', amount: AMOUNT, bank_code: 'BCA', account_number: '1234567890' } : { action: 'get_balance' },
          );
          try {
            const res = await post(agent, server.port, body, headers);
            r.answered++;
            perClient[c]!++;
            if (signalled) r.answeredAfterSignal++;
            if (res.status >= 500) r.fiveXX++;
            if (res.connection === 'close') r.connectionClose++;
            if (withdraw && res.status === 200) r.paid++;
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            // Not listening any more: the connect is refused, nothing was sent; a balancer retries elsewhere.
            if (code === 'ECONNREFUSED') r.refused++;
            else
              r.resets.push(
                `${code ?? ''} ${(error as Error).message} (${(error as { reused?: boolean }).reused ? 'kept-alive' : 'new'} connection, ${signalled ? `${Math.round(performance.now() - signalAt)} ms after SIGTERM` : 'before SIGTERM'})`,
              );
            return;
          }
        }
      } finally {
        agent.destroy();
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    // Every client on its kept-alive connection, answered a few times (a process that just started,
    // on a busy machine, accepts its first connections late), then the load a while longer.
    while (perClient.some((n) => n < 3)) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, loadMs));
    const exited = new Promise<number | null>((resolve) => server.child!.once('exit', (code) => resolve(code)));
    const t = performance.now();
    signalled = true;
    signalAt = t;
    server.child!.kill('SIGTERM');
    r.cleanExit = (await exited) === 0;
    r.msToExit = Math.round(performance.now() - t);
    await load;
    const check = await d.inspect((db) => ledgerCheck(db, merchantId));
    expectLedgerExact(check, { payouts: r.paid, available: before - r.paid * AMOUNT });
    return r;
  } finally {
    await d.close();
  }
}

describe(`SIGTERM under ${CLIENTS} continuous keep-alive clients (${backend})`, () => {
  it(`${STRESS.keepAliveRuns} runs (npm start and start:api in turn): every request on an accepted connection answered, 0 resets, 0 5xx`, async () => {
    const runs: Run[] = [];
    for (let i = 0; i < STRESS.keepAliveRuns; i++) runs.push(await drainOnce(i % 2 === 0 ? 'next' : 'standalone', i, 400 + 100 * (i % 3)));

    const figures = (rs: Run[]) => ({
      runs: rs.length,
      'clean exits': rs.filter((r) => r.cleanExit).length,
      answered: rs.reduce((n, r) => n + r.answered, 0),
      'answered after SIGTERM': rs.reduce((n, r) => n + r.answeredAfterSignal, 0),
      'Connection: close answers': rs.reduce((n, r) => n + r.connectionClose, 0),
      resets: rs.reduce((n, r) => n + r.resets.length, 0),
      '5xx': rs.reduce((n, r) => n + r.fiveXX, 0),
      'refused connects (after the drain)': rs.reduce((n, r) => n + r.refused, 0),
      'slowest exit ms': Math.max(...rs.map((r) => r.msToExit)),
    });
    for (const kind of ['next', 'standalone'] as const) {
      const rs = runs.filter((r) => r.kind === kind);
      if (rs.length) recordFigures(`SIGTERM under continuous keep-alive load, ${kind === 'next' ? 'npm start' : 'start:api'}`, figures(rs));
    }
    expect(runs.flatMap((r) => r.resets)).toEqual([]);
    expect(runs.map((r) => r.fiveXX)).toEqual(runs.map(() => 0));
    expect(runs.every((r) => r.cleanExit)).toBe(true);
    // Every client was told on its own connection, then found the port closed.
    expect(runs.every((r) => r.connectionClose >= 1 && r.refused === CLIENTS)).toBe(true);
  }, 600_000);
});
