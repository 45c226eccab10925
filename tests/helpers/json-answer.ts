/**
 * A JSON answer as a test reads it, before an assertion checks it: untyped, as `JSON.parse`'s result
 * is. Its shape is checked against the contract's response schemas on every call (openapi-check.ts),
 * so the tests index into it freely. The one place the lint step's no-explicit-any is waived.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an answer parsed from JSON, checked by assertions, not by the compiler
export type JsonAnswer = any;
