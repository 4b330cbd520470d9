import { Ajv, type ValidateFunction } from 'ajv';
import oas from './oas-data-schemas.json' with { type: 'json' };

/**
 * Validates wire bodies against the schemas of td-api-v3.openapi.yml (an excerpt kept next to this file).
 * The OAS is OpenAPI 3.0: `nullable` is understood, descriptive keywords (`example`) are ignored.
 */
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema({ components: oas.components }, 'oas');

const cache = new Map<string, ValidateFunction>();

function validator(ref: string): ValidateFunction {
  let v = cache.get(ref);
  if (!v) {
    v = ajv.compile({ $ref: ref });
    cache.set(ref, v);
  }
  return v;
}

/** Errors of `value` against `components.schemas.<name>`, or an empty list. */
export function oasErrors(name: string, value: unknown): string[] {
  const v = validator(`oas#/components/schemas/${name}`);
  return v(value) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** Errors of `value` against one of the excerpt's response schemas. */
export function oasResponseErrors(name: keyof typeof oas.responses, value: unknown): string[] {
  let v = cache.get(`response:${name}`);
  if (!v) {
    v = ajv.compile({ ...oas.responses[name], components: oas.components });
    cache.set(`response:${name}`, v);
  }
  return v(value) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
