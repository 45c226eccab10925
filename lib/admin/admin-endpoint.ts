import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { errorAnswer, type ErrorCode } from '../contract';
import type { Db } from '../db/types';
import { createBackup } from './backup';
import { runMerchantCommand, UsageError, type MerchantCommand } from './merchant-commands';

/**
 * While a server holds the embedded database, `npm run merchant` cannot open it
 * (one process per folder). The server then takes the CLI's commands itself, at
 * POST /_admin/merchants, from this machine only: the connection must come from a
 * loopback address and carry the token the server wrote into DATA_DIR (mode 0600,
 * so only the user who runs the server can read it). No remote client has either.
 * `npm run backup` takes its copy of the running database the same way, at POST /_admin/backup.
 */
export const ADMIN_PATH = '/_admin/merchants';
/** POST, no body: answers a backup file of the embedded database (`npm run backup`; lib/admin/backup.ts). */
export const ADMIN_BACKUP_PATH = '/_admin/backup';
export const ADMIN_FILE = 'admin.json';

export interface AdminAccess {
  url: string;
  token: string;
}

export const newAdminToken = () => randomBytes(32).toString('base64url');

/** Writes DATA_DIR/admin.json for the CLI (owner only); returns a function that removes it. */
export function publishAdminAccess(dataDir: string, port: number, token: string): () => void {
  const file = path.join(dataDir, ADMIN_FILE);
  fs.writeFileSync(file, JSON.stringify({ url: `http://127.0.0.1:${port}`, token } satisfies AdminAccess), { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return () => fs.rmSync(file, { force: true });
}

export function readAdminAccess(dataDir: string): AdminAccess | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, ADMIN_FILE), 'utf8')) as AdminAccess;
  } catch {
    return undefined;
  }
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
const isLoopback = (address: string | undefined) => !!address && (/^(::ffff:)?127\./.test(address) || address === '::1');

/** The endpoint, for the app server's routing (both paths). `dataDir`: the secret files a backup carries. */
export function adminHandler(db: Db, token: string, dataDir: string) {
  return async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const reply = (status: number, text: string) =>
      res
        .writeHead(status, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
          'content-length': Buffer.byteLength(text),
        })
        .end(text);
    const refuse = (code: ErrorCode, message: string) => {
      const { status, body } = errorAnswer(code, message);
      reply(status, body);
    };
    const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (req.method !== 'POST' || !isLoopback(req.socket.remoteAddress) || !timingSafeEqual(digest(given), digest(token))) {
      req.resume();
      return refuse('not_found', 'Not found.');
    }
    if ((req.url ?? '').split('?', 1)[0] === ADMIN_BACKUP_PATH) {
      req.resume();
      try {
        const file = await createBackup(db, dataDir);
        res
          .writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'no-store', 'content-length': file.length })
          .end(file);
      } catch (error) {
        refuse('internal_error', `The backup failed: ${(error as Error)?.message ?? error}`);
      }
      return;
    }
    let command: MerchantCommand;
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Buffer).length;
        if (size > 16 * 1024) throw new UsageError('the command is too large');
        chunks.push(chunk as Buffer);
      }
      command = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      reply(200, JSON.stringify(await runMerchantCommand(db, command)));
    } catch (error) {
      const known =
        error instanceof UsageError || error instanceof SyntaxError || /^no merchant with id/.test((error as Error)?.message ?? '');
      if (known) refuse('invalid_request', (error as Error).message);
      else refuse('internal_error', 'The command failed.');
    }
  };
}
