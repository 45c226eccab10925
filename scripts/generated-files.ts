import { buildOpenApiDocument } from '../lib/openapi';
import { sdkTypesSource } from '../lib/openapi/typescript';

/** Every generated file, by path from the repository root, and what it must hold. */
export const GENERATED = (): Record<string, string> => ({
  'docs/openapi.json': `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`,
  'packages/sdk/src/generated.ts': sdkTypesSource(),
});
