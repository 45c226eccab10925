// Console sessions over real HTTP (a next start process on PostgreSQL): tampered, expired, and a new id at each sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '@/lib/db/open-db';
import type { Db } from '@/lib/db/types';
import { signInToConsole } from '../../testing/console-session';
import { createSchemaUrl, postgresUrl } from '../../testing/databases';
import { ensureNextBuild } from '../../testing/next-build';
import { ServerProcess } from '../../testing/server-process';

describe.runIf(postgresUrl)('console session cookies against a running Next server', () => {
  let server: ServerProcess;
  let db: Db;
  beforeAll(async () => {
    const url = await createSchemaUrl();
    server = await new ServerProcess({ kind: 'next', databaseUrl: url, distDir: await ensureNextBuild() }).start();
    db = await openDb({ databaseUrl: url, poolSize: 2 });
  });
  afterAll(async () => {
    await db?.close();
    await server?.stop();
  });

  const balance = (cookie: string) => fetch(`${server.url}/api/balance`, { headers: { cookie } });
  const liveSessions = async () =>
    (await db.query<{ id: string }>('SELECT id FROM console_sessions WHERE revoked_at IS NULL AND expires_at > now()')).map((r) => r.id);

  it('creates a new session id at every sign-in', async () => {
    const before = await liveSessions();
    const first = await signInToConsole(server.url);
    const second = await signInToConsole(server.url);
    expect(first).not.toBe(second);
    const added = (await liveSessions()).filter((id) => !before.includes(id));
    expect(new Set(added).size).toBe(2);
    expect((await balance(first)).status).toBe(200);
    expect((await balance(second)).status).toBe(200);
  });

  it('answers 401 JSON to a tampered cookie', async () => {
    const cookie = await signInToConsole(server.url);
    const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    const i = Math.floor(value.length / 2);
    const tampered = `${name}=${value.slice(0, i)}${value[i] === 'A' ? 'B' : 'A'}${value.slice(i + 1)}`;
    const res = await balance(tampered);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers 401 to the cookie of a session that has expired', async () => {
    const before = await liveSessions();
    const cookie = await signInToConsole(server.url);
    const [id] = (await liveSessions()).filter((s) => !before.includes(s));
    expect((await balance(cookie)).status).toBe(200);
    await db.query(`UPDATE console_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect((await balance(cookie)).status).toBe(401);
  });
});
