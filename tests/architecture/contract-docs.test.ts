// docs/api.md keeps up with the contract: every action in its actions table, every error code with its status and type.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, ACTIONS, ERROR_CODES, type ErrorCode } from '@/lib/contract';

const docs = fs.readFileSync(path.join(__dirname, '../../docs/api.md'), 'utf8');

describe('docs/api.md and the error table', () => {
  it.each(Object.keys(ERROR_CODES) as ErrorCode[])('documents %s with its status and type', (code) => {
    const { status, type } = ERROR_CODES[code];
    expect(docs).toContain(`| ${status} | \`${code}\` | ${type} |`);
  });
});

describe('docs/api.md and the actions', () => {
  it.each(ACTION_NAMES)('documents %s in the actions table', (name) => {
    expect(docs).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
  });

  it.each(ACTION_NAMES)('documents the permission %s needs', (name) => {
    const row = docs.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row?.split(' | ')[3]).toBe(`\`${ACTIONS[name].permission}\``);
  });
});
