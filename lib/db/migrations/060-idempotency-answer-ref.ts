/**
 * What the request log says of a stored answer, kept beside it: the id of the object a 200 answer is
 * about, or a refusal's error code. A replay logs it from this column instead of reading the answer's
 * JSON back. Keys stored before this migration replay with none (they expire within the retention).
 */
export const sql = /* sql */ `
ALTER TABLE idempotency_keys ADD COLUMN answer_ref text;
`;
