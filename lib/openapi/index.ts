export {
  apiErrorCodes,
  buildOpenApiDocument,
  CONSOLE_ONLY_CODES,
  requestSchemaName,
  type ActionEntry,
  type OpenApiDocument,
} from './document';
export type { JsonSchema } from './json-schema';
