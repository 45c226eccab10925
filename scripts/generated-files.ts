import { buildOpenApiDocument } from '../lib/openapi';

/** Every generated file, by path from the repository root, and what it must hold. */
export const GENERATED = (): Record<string, string> => ({
  'docs/openapi.json': `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`,
});
