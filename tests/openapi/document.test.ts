// The OpenAPI document: a valid OpenAPI 3.1 document, generated from lib/contract, and the committed copy is current.
import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, API_PATH, ERROR_CODE_NAMES, ERROR_CODES, IDEMPOTENCY_HEADER } from '@/lib/contract';
import { apiErrorCodes, buildOpenApiDocument } from '@/lib/openapi';
import { GENERATED } from '@/scripts/generated-files';
import type { JsonAnswer } from '../helpers/json-answer';

const doc = buildOpenApiDocument();
const operation = doc.paths[API_PATH].post;

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it.each(Object.entries(GENERATED()))(
    'the committed %s is current (run `npm run generate` after changing the contract)',
    (file, content) => {
      expect(fs.readFileSync(path.join(__dirname, '../..', file), 'utf8')).toBe(content);
    },
  );

  it('has one path whose body is every action, discriminated on `action`', () => {
    expect(Object.keys(doc.paths)).toEqual([API_PATH]);
    const schema = operation.requestBody.content['application/json'].schema;
    expect(schema.discriminator.propertyName).toBe('action');
    expect(Object.keys(schema.discriminator.mapping)).toEqual(ACTION_NAMES);
    expect(schema.oneOf).toHaveLength(ACTION_NAMES.length);
    for (const name of ACTION_NAMES) {
      const variant = doc.components.schemas[operation['x-actions'][name].request.split('/').pop()!] as JsonAnswer;
      expect(variant.properties.action).toEqual({ type: 'string', const: name });
      expect(variant.title).toBe(name);
    }
  });

  it('answers every action with a named object, and lists each API error code under its status', () => {
    for (const name of ACTION_NAMES) expect(doc.components.schemas).toHaveProperty(operation['x-actions'][name].response.split('/').pop()!);
    for (const code of apiErrorCodes()) {
      const status = ERROR_CODES[code].status;
      const response = (operation.responses as Record<string, JsonAnswer>)[String(status)];
      expect(response.description).toContain(`\`${code}\``);
      expect((doc.components.schemas[`Error${status}`] as JsonAnswer).properties.error.properties.code.enum).toContain(code);
    }
    expect(doc.components.schemas.ErrorCode!.enum).toEqual(ERROR_CODE_NAMES);
  });

  it('names the headers and the Bearer scheme', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.parameters.IdempotencyKey.name).toBe(IDEMPOTENCY_HEADER);
    expect(Object.keys(operation.responses['200'].headers)).toContain('x-service-idempotent-replayed');
    for (const status of ['409', '429', '503'])
      expect((operation.responses as Record<string, JsonAnswer>)[status].headers).toHaveProperty('Retry-After');
  });
});
