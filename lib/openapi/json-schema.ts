import { z } from 'zod';

/** A JSON Schema (2020-12) object, as OpenAPI 3.1 embeds it. */
export type JsonSchema = { [key: string]: unknown };

export const schemaRef = (name: string) => `#/components/schemas/${name}`;

/**
 * Converts named zod schemas into components, with zod 4's own `z.toJSONSchema`:
 * a schema registered here that another one contains (a payout inside a list)
 * becomes a `$ref` to its component rather than a copy. Requests are described as
 * zod reads them (`io: 'input'`), answers as it writes them (`io: 'output'`:
 * objects with `additionalProperties: false`, so an undocumented field in an
 * answer fails the suite that checks answers against this document).
 */
export function toComponents(named: Map<z.ZodType, string>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: schemaRef,
    // Refinements (an id's prefix) have no JSON Schema form: the text of each field says them.
    unrepresentable: 'any',
  });
  const components: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Components live inside the document: no dialect or id of their own.
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
    components[id] = rest;
  }
  return components;
}

/**
 * The component name of an answer object: from its `object` literal
 * (`payout` → Payout, a list of payouts → PayoutList), so a new object needs no
 * naming table; anything else is named after the action that answers with it.
 */
export function objectName(schema: z.ZodType, action: string): string {
  const literal = objectLiteral(schema);
  if (literal === 'list') {
    const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
    const items = shape.data instanceof z.ZodArray ? objectLiteral(shape.data.element as z.ZodType) : undefined;
    if (items) return `${pascal(items)}List`;
  } else if (literal) {
    return pascal(literal);
  }
  return `${pascal(action)}Response`;
}

function objectLiteral(schema: z.ZodType): string | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  const field = (schema.shape as Record<string, z.ZodType>).object;
  return field instanceof z.ZodLiteral && typeof field.value === 'string' ? field.value : undefined;
}

export const pascal = (snake: string) => snake.replace(/(^|_)([a-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());
