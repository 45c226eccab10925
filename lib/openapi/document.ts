import type { z } from 'zod';
import {
  apiKeyWithSecretSchema,
  currentKeySchema,
  deletedWebhookEndpointSchema,
  deletedSandboxSchema,
  sandboxWithKeySchema,
  payoutBatchListItemSchema,
  webhookEndpointWithSecretSchema,
  ACTION_NAMES,
  ACTIONS,
  API_PATH,
  ERROR_CODE_NAMES,
  ERROR_CODES,
  errorBodySchema,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_KEY_RULE,
  MAX_BODY_BYTES,
  REPLAYED_HEADER,
  REQUEST_ID_HEADER,
  type ActionName,
  type ErrorCode,
} from '../contract';
import { objectName, pascal, schemaRef, toComponents, type JsonSchema } from './json-schema';

/** Codes that only the console's own routes answer with (never the API): listed in ErrorCode, not on the API's path. */
export const CONSOLE_ONLY_CODES = [
  'invalid_secret_key',
  'cross_origin_request',
  'upstream_invalid_response',
  'upstream_unavailable',
] as const satisfies readonly ErrorCode[];

/** Statuses that come with Retry-After (seconds): retry then, with the same idempotency key. */
const RETRY_AFTER_STATUSES = [409, 429, 503];

export const requestSchemaName = (action: string) => `${pascal(action)}Request`;

/** What the document says about each action beyond its schemas: read by the tests and the SDK's type generator. */
export interface ActionEntry {
  request: string;
  response: string;
  mutates: boolean;
  permission: string;
}

/** Answers that share their `object` with another answer: named here. */
const NAMED_ANSWERS = new Map<z.ZodType, string>([
  [webhookEndpointWithSecretSchema, 'WebhookEndpointWithSecret'],
  [deletedWebhookEndpointSchema, 'DeletedWebhookEndpoint'],
  [apiKeyWithSecretSchema, 'ApiKeyWithSecret'],
  [currentKeySchema, 'CurrentApiKey'],
  [sandboxWithKeySchema, 'SandboxWithKey'],
  [deletedSandboxSchema, 'DeletedSandbox'],
]);

/** Objects that are only ever inside an answer: a component of their own (a named SDK type), not a copy inlined. */
const NAMED_PARTS = new Map<z.ZodType, string>([[payoutBatchListItemSchema, 'PayoutBatchListItem']]);

/**
 * The OpenAPI 3.1 document of the payment API, built from lib/contract alone:
 * one path, whose request body is a union of every action discriminated on
 * `action`, every answer object, every error code under its status. Pure: the
 * app server serves it at GET /v1/openapi.json, `npm run generate` writes
 * docs/openapi.json, and a test fails when that copy is stale.
 */
/** `baseUrl`: where the API is served (the running server's public origin; the committed file's default is local). */
export function buildOpenApiDocument(baseUrl = 'http://localhost:3000', version = '1.0.0') {
  const requests = new Map<z.ZodType, string>(ACTION_NAMES.map((name) => [ACTIONS[name].request, requestSchemaName(name)]));
  const responses = new Map<z.ZodType, string>();
  const actions = {} as Record<ActionName, ActionEntry>;
  for (const name of ACTION_NAMES) {
    const { response, mutates, permission } = ACTIONS[name];
    if (!responses.has(response)) {
      const named = NAMED_ANSWERS.get(response) ?? objectName(response, name);
      // Two answer schemas under one name would make one silently describe the other's answers.
      if ([...responses.values()].includes(named))
        throw new Error(`two answer schemas are both named ${named}: give one a name in NAMED_ANSWERS`);
      responses.set(response, named);
    }
    actions[name] = { request: schemaRef(requestSchemaName(name)), response: schemaRef(responses.get(response)!), mutates, permission };
  }
  for (const [schema, name] of NAMED_PARTS) responses.set(schema, name);
  responses.set(errorBodySchema, 'ErrorBody');

  const requestComponents = toComponents(requests, 'input');
  for (const name of ACTION_NAMES) {
    const { summary, mutates, permission } = ACTIONS[name];
    const returns = actions[name].response.split('/').pop();
    Object.assign(requestComponents[requestSchemaName(name)]!, {
      title: name,
      description: `${summary}\n\nAnswers with **${returns}**. Permission: \`${permission}\`.${mutates ? ` Changes state: send \`${IDEMPOTENCY_HEADER}\`.` : ''}`,
      'x-permission': permission,
      'x-mutates': mutates,
    });
  }
  const schemas: Record<string, JsonSchema> = {
    ...requestComponents,
    ...toComponents(responses, 'output'),
    ErrorCode: {
      type: 'string',
      enum: ERROR_CODE_NAMES,
      description: "Every code of the one error table (lib/contract/errors.ts), the console's included. Clients branch on `code`.",
    },
  };
  const errorStatuses = [...new Set(apiErrorCodes().map((code) => ERROR_CODES[code].status))].sort((a, b) => a - b);
  for (const status of errorStatuses) schemas[`Error${status}`] = errorSchema(status);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Merchant payment API',
      version,
      description: infoDescription(),
    },
    servers: [{ url: '{base_url}', variables: { base_url: { default: baseUrl, description: 'Where the API is served.' } } }],
    security: [{ bearerAuth: [] }],
    paths: {
      [API_PATH]: {
        post: {
          operationId: 'callAction',
          summary: 'Run one action',
          description: actionsTable(actions),
          parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
          requestBody: {
            required: true,
            description: `A JSON object (at most ${MAX_BODY_BYTES / 1024} KiB) whose \`action\` chooses the command; unknown fields are refused.`,
            content: {
              'application/json': {
                schema: {
                  oneOf: ACTION_NAMES.map((name) => ({ $ref: actions[name].request })),
                  discriminator: {
                    propertyName: 'action',
                    mapping: Object.fromEntries(ACTION_NAMES.map((name) => [name, actions[name].request])),
                  },
                },
              },
            },
          },
          responses: {
            '200': {
              description: "The action's answer object (see the table above for which one).",
              headers: {
                [REQUEST_ID_HEADER]: { $ref: '#/components/headers/RequestId' },
                [REPLAYED_HEADER]: { $ref: '#/components/headers/Replayed' },
              },
              content: {
                'application/json': {
                  schema: { anyOf: [...new Set(ACTION_NAMES.map((n) => actions[n].response))].map(($ref) => ({ $ref })) },
                },
              },
            },
            ...Object.fromEntries(errorStatuses.map((status) => [String(status), errorResponse(status)])),
          },
          'x-actions': actions,
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: "The merchant's secret key: `Authorization: Bearer sk_test_…` (the scheme name is case-insensitive).",
        },
      },
      parameters: {
        IdempotencyKey: {
          name: IDEMPOTENCY_HEADER,
          in: 'header',
          required: false,
          description: `On state-changing actions: ${IDEMPOTENCY_KEY_RULE}. The same key with the same body within the retention answers with the stored answer (\`${REPLAYED_HEADER}: true\`) and does nothing again; with another body it is 422 \`idempotency_key_reused\`.`,
          schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source, minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        RequestId: {
          description: 'Id of this request (also `request_id` in error bodies): quote it to support.',
          schema: { type: 'string' },
        },
        Replayed: {
          description: 'Present (`true`) when the answer is the stored answer of an earlier request with the same idempotency key.',
          schema: { type: 'string', enum: ['true'] },
        },
        RetryAfter: {
          description: 'Seconds to wait before retrying (with the same idempotency key).',
          schema: { type: 'integer', minimum: 0 },
        },
      },
      schemas,
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/** The codes the API itself can answer with. */
export function apiErrorCodes(): ErrorCode[] {
  return ERROR_CODE_NAMES.filter((code) => !(CONSOLE_ONLY_CODES as readonly string[]).includes(code));
}

const codesOf = (status: number) => apiErrorCodes().filter((code) => ERROR_CODES[code].status === status);

/** The error body, its `code` and `type` narrowed to those of one status. */
function errorSchema(status: number): JsonSchema {
  const codes = codesOf(status);
  const error = {
    type: 'object',
    properties: {
      type: { type: 'string', enum: [...new Set(codes.map((code) => ERROR_CODES[code].type))] },
      code: { type: 'string', enum: codes },
      message: { type: 'string' },
      param: { type: 'string', description: 'The field (or header) the error is about, e.g. `amount` or `payouts[17].account_number`.' },
      request_id: { type: 'string' },
    },
    required: ['type', 'code', 'message'],
    additionalProperties: false,
  };
  return { type: 'object', properties: { error }, required: ['error'], additionalProperties: false };
}

function errorResponse(status: number) {
  const lines = codesOf(status).map((code) => `- \`${code}\` (${ERROR_CODES[code].type}): ${ERROR_CODES[code].description}`);
  return {
    description: lines.join('\n'),
    headers: {
      [REQUEST_ID_HEADER]: { $ref: '#/components/headers/RequestId' },
      ...(RETRY_AFTER_STATUSES.includes(status) ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
    },
    content: { 'application/json': { schema: { $ref: schemaRef(`Error${status}`) } } },
  };
}

function actionsTable(actions: Record<ActionName, ActionEntry>): string {
  const rows = ACTION_NAMES.map((name) => {
    const a = actions[name];
    return `| \`${name}\` | ${a.response.split('/').pop()} | ${a.mutates ? 'yes' : 'no'} | \`${a.permission}\` |`;
  });
  return [
    'Every action is a POST of one JSON object to this path; `action` names it. The request body below is the union of every action: pick one to see its fields and what it does.',
    '',
    '| action | answers with | changes state | permission |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function infoDescription(): string {
  const rows = ERROR_CODE_NAMES.map(
    (code) => `| ${ERROR_CODES[code].status} | \`${code}\` | ${ERROR_CODES[code].type} | ${ERROR_CODES[code].description} |`,
  );
  return [
    `One endpoint, \`POST ${API_PATH}\`: a JSON object whose \`action\` chooses the command, a Bearer secret key, and for state-changing actions an idempotency key (\`${IDEMPOTENCY_HEADER}\`).`,
    '',
    `**Retries.** After a network error, a timeout, a 5xx, a 409 \`idempotency_request_in_progress\` or a 429, retry after 1 s, 2 s, 4 s (or a longer \`Retry-After\`) with the same idempotency key: the action is carried out at most once, and a replayed answer carries \`${REPLAYED_HEADER}: true\`. Other 4xx are final.`,
    '',
    "Amounts are integers in the currency's smallest unit. Every answer carries a `request-id` header.",
    '',
    '**Errors.** One shape: `{ "error": { "type", "code", "message", "param"?, "request_id"? } }`. The whole table (codes marked "Console:" are answered only by the merchant console\'s own routes):',
    '',
    '| status | code | type | when |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}
