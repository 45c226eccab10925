import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ACTION_NAMES, API_PATH, type ActionName } from '@/lib/contract';
import { buildOpenApiDocument } from '@/lib/openapi';

/** An answer that the OpenAPI document does not describe: a failure of the test, never a network error to retry. */
export class OpenApiMismatchError extends Error {
  name = 'OpenApiMismatchError';
}

let compiled: { ajv: Ajv2020; actions: Record<string, { response: string }> } | undefined;
const validators = new Map<string, ValidateFunction>();

function validator(ref: string): ValidateFunction | undefined {
  if (!compiled) {
    const doc = buildOpenApiDocument();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'openapi.json');
    compiled = { ajv, actions: doc.paths[API_PATH].post['x-actions'] };
  }
  if (!validators.has(ref)) {
    const fn = compiled.ajv.getSchema(`openapi.json${ref}`);
    if (fn) validators.set(ref, fn);
  }
  return validators.get(ref);
}

/**
 * Checks one answer of the API against the OpenAPI document: a 2xx against the
 * object its action answers with, anything else against Error<status>. Every
 * answer the integration suite receives through callApi goes through here, so a
 * change to a zod schema or an error that the document does not show fails it.
 */
export function assertMatchesOpenApi(requestBody: string | undefined, status: number, text: string): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new OpenApiMismatchError(`The API answered HTTP ${status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  let ref: string;
  if (status >= 200 && status < 300) {
    const action = actionOf(requestBody);
    if (!action) throw new OpenApiMismatchError(`HTTP ${status} for a request without a known action: ${requestBody?.slice(0, 200)}`);
    validator('#/components/schemas/ErrorBody'); // compiles the document
    ref = compiled!.actions[action]!.response;
  } else {
    ref = `#/components/schemas/Error${status}`;
  }
  const validate = validator(ref);
  if (!validate) throw new OpenApiMismatchError(`The OpenAPI document has no schema for HTTP ${status} (${ref})`);
  if (!validate(body))
    throw new OpenApiMismatchError(
      `HTTP ${status} does not match ${ref} of the OpenAPI document: ${compiled!.ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`,
    );
}

function actionOf(requestBody: string | undefined): ActionName | undefined {
  try {
    const action = (JSON.parse(requestBody ?? '') as { action?: unknown })?.action;
    return ACTION_NAMES.find((name) => name === action);
  } catch {
    return undefined;
  }
}
