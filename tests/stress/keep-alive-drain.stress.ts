// SIGTERM under continuous keep-alive load (a rolling deploy as a load balancer sees it): 16 clients
// send get_balance and withdraw back to back, each on a kept-alive connection, with no pause. Every
// request sent on an accepted connection must be answered (no ECONNRESET, no 5xx); a client learns
// the instance is going from `Connection: close`, then from a refused connect, and goes elsewhere.
// Once the signal goes to the start script's process, once to `npm start`'s whole process group, as
// a process manager sends it: npm and every process below it get it (and npm passes it on).
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { API_PATH } from '../../testing/api-path';
import { DEMO_KEY, type ServerKind } from '../../testing/server-process';
import { Deployment, ledgerCheck, stressBackends, type StressBackend } from './deployment';
import { recordFigures, STRESS } from './figures';
import { expectLedgerExact } from './ledger-assertions';

const CLIENTS = 16;
const AMOUNT = 100;
const backend = stressBackends[stressBackends.length - 1]!;

/** Which server, on which database, started how (npm: its whole process group is signalled). */
interface Setup {
  kind: ServerKind;
  backend: StressBackend;
  launch: 'node' | 'npm';
}

interface Run {
  kind: ServerKind;
  cleanExit: boolean;
  /** Launched by npm: nothing of its process group is left once npm exits. */
  groupGone: boolean;
  answered: number;
  answeredAfterSignal: number;
  connectionClose: number;
  fiveXX: number;
  resets: string[];
  refused: number;
  paid: number;
  msToExit: number;
  ledger?: { check: Awaited<ReturnType<typeof ledgerCheck>>; available: number };
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
async function drainOnce({ kind, backend, launch }: Setup, run: number, loadMs: number): Promise<Run> {
  const d = await Deployment.create(backend, [kind], {}, {}, undefined, launch);
  try {
    const server = d.servers[0]!;
    const { merchantId, available: before } = await d.balance();
    const r: Run = {
      kind,
      cleanExit: false,
      groupGone: launch === 'node',
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
    server.kill('SIGTERM');
    r.cleanExit = (await exited) === 0;
    r.msToExit = Math.round(performance.now() - t);
    if (launch === 'npm') r.groupGone = !server.groupAlive();
    await load;
    // A server still running (npm gone before it) holds the embedded database: that run fails on groupGone.
    if (!r.groupGone) return r;
    const check = await d.inspect((db) => ledgerCheck(db, merchantId));
    return { ...r, ledger: { check, available: before - r.paid * AMOUNT } };
  } finally {
    await d.close();
  }
}

/** What every run must show: nothing reset, nothing 5xx, a clean exit, every client told, the ledger exact. */
function expectDrained(runs: Run[]) {
  expect(runs.flatMap((r) => r.resets)).toEqual([]);
  expect(runs.map((r) => r.fiveXX)).toEqual(runs.map(() => 0));
  // Exit 0 (npm's is its script's), and nothing of an npm-started group outlives npm.
  expect(runs.map((r) => ({ cleanExit: r.cleanExit, groupGone: r.groupGone }))).toEqual(
    runs.map(() => ({ cleanExit: true, groupGone: true })),
  );
  // Every client was told on its own connection, then found the port closed.
  expect(runs.every((r) => r.connectionClose >= 1 && r.refused === CLIENTS)).toBe(true);
  for (const { ledger, paid } of runs) expectLedgerExact(ledger!.check, { payouts: paid, available: ledger!.available });
}

describe(`SIGTERM under ${CLIENTS} continuous keep-alive clients (${backend})`, () => {
  it(`${STRESS.keepAliveRuns} runs (npm start and start:api in turn): every request on an accepted connection answered, 0 resets, 0 5xx`, async () => {
    const runs: Run[] = [];
    for (let i = 0; i < STRESS.keepAliveRuns; i++) {
      runs.push(await drainOnce({ kind: i % 2 === 0 ? 'next' : 'standalone', backend, launch: 'node' }, i, 400 + 100 * (i % 3)));
    }

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
    expectDrained(runs);
  }, 600_000);
});

describe(`SIGTERM to npm start's process group under ${CLIENTS} continuous keep-alive clients (embedded database)`, () => {
  it('npm, the start script and every process between them get the signal: every request on an accepted connection answered, the group gone', async () => {
    const run = await drainOnce({ kind: 'next', backend: 'pglite', launch: 'npm' }, 0, 300);
    recordFigures("SIGTERM to npm start's process group, embedded database", {
      answered: run.answered,
      'answered after SIGTERM': run.answeredAfterSignal,
      resets: run.resets.length,
      'ms to exit': run.msToExit,
    });
    expectDrained([run]);
  }, 300_000);
});
