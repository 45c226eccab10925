// The id format is written once, in lib/contract (idPattern, isId, ledgerEntryOf, the key patterns):
// a regular expression for an id anywhere else would drift from it, as eleven copies once did.
import { describe, expect, it } from 'vitest';
import { idField, idPattern, isId } from '@/lib/contract';
import { readSource, sourceFiles } from './source-files';

const PREFIXES = 'po|pb|cs|re|we|evt|key|txn|req|tu|acct|sess|bav|(?:sk|rk)_test';
/** An id's prefix followed by a pattern: `po_[0-9A-Za-z]…`, `txn_(\d…)`, `evt_\w…`, or a prefix test in place of the check. */
const ID_REGEX = new RegExp(`\\b(${PREFIXES})_(\\[|\\(|\\\\[dw])|startsWith\\(['"\`](${PREFIXES})_['"\`]`);

const outsideContract = () =>
  sourceFiles(['app', 'lib', 'console', 'packages/sdk/src', 'scripts'])
    .concat(['proxy.ts'])
    .filter((f) => !f.startsWith('lib/contract/') && f !== 'packages/sdk/src/generated.ts');

describe('id formats', () => {
  it('are written only in lib/contract', () => {
    const found = outsideContract().flatMap((file) =>
      readSource(file)
        .split('\n')
        .map((line, i) => [line, i] as const)
        .filter(([line]) => ID_REGEX.test(line))
        .map(([line, i]) => `${file}:${i + 1}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('the check catches the copies it is there for', () => {
    for (const copy of [
      'if (!/^re_[0-9A-Za-z]{1,96}$/.test(id)) notFound();',
      'const m = /^txn_([1-9][0-9]{0,15})$/.exec(id);',
      "z.string().startsWith('po_')",
      'SECRET = /^sk_test_[0-9A-Za-z]{32,200}$/',
    ]) {
      expect(ID_REGEX.test(copy), copy).toBe(true);
    }
    for (const fine of ['const id = `req_${randomBase62(12)}`;', "newId('po')", "isId('cs', id)"])
      expect(ID_REGEX.test(fine), fine).toBe(false);
  });

  it('one format: a prefix, then 1 to 96 letters and digits, the same in the API field and the console', () => {
    expect(isId('po', `po_${'a'.repeat(24)}`)).toBe(true);
    expect(isId('po', `po_${'a'.repeat(96)}`)).toBe(true);
    for (const bad of ['po_', `po_${'a'.repeat(97)}`, 'po_a-b', 'po_a/b', 'cs_abc', ' po_abc', 'po_abc\n']) {
      expect(isId('po', bad), bad).toBe(false);
      expect(idField('po').safeParse(bad).success, bad).toBe(false);
    }
    expect(idField('po').parse('po_Abc123')).toBe('po_Abc123');
    expect(idPattern('evt').source).toBe('^evt_[0-9A-Za-z]{1,96}$');
  });
});
