import type { z } from 'zod';

/**
 * The first issue of a failed parse as a message and the field it names: an
 * unknown field by its own name, a bad one by its path. Shared by the API and
 * the console so both name fields the same way.
 */
export function describeFirstIssue(error: z.ZodError): { message: string; param?: string } {
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const field = fieldPath([...issue.path, issue.keys[0]!]);
    return { message: `Unknown field: ${field}`, param: field };
  }
  const param = fieldPath(issue.path) || undefined;
  const message = param && !issue.message.startsWith(param) ? `${param}: ${issue.message}` : issue.message;
  return { message, param };
}

/** `payouts[17].account_number`: list positions in brackets, as a merchant reads them. */
const fieldPath = (path: PropertyKey[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${String(p)}`)).join('');
