/**
 * Who made each logged call: `console` for the reads the merchant console makes to draw its pages (the
 * header it sends, lib/contract/protocol.ts), `api` for everything else, so the log can show what the
 * merchant's systems and people did first. A constant default adds the column without rewriting the table.
 */
export const sql = /* sql */ `
ALTER TABLE request_log ADD COLUMN origin text NOT NULL DEFAULT 'api';
`;
