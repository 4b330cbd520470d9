import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

/**
 * Validates wire bodies against td-api-v3.openapi.yml, read from the shared reference folder beside the
 * repository (`SVC_SHARED_DIR` overrides where that is). The document is OpenAPI 3.0: Ajv resolves its
 * `$ref`s and understands `nullable`; descriptive keywords (`example`, `deprecated`) are ignored.
 */
const here = dirname(fileURLToPath(import.meta.url));
const sharedDir = process.env.SVC_SHARED_DIR ?? resolve(here, '../../../../../../shared');
const file = resolve(sharedDir, 'reference/td-api-v3.openapi.yml');

let ajv: Ajv | null = null;
const compiled = new Map<string, ValidateFunction>();

function validator(pointer: string): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    ajv.addSchema(parse(readFileSync(file, 'utf8')) as object, 'oas');
  }
  let v = compiled.get(pointer);
  if (!v) {
    v = ajv.compile({ $ref: `oas#${pointer}` });
    compiled.set(pointer, v);
  }
  return v;
}

const pointerEscape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function errorsOf(v: ValidateFunction, value: unknown): string[] {
  return v(value)
    ? []
    : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** Errors of `value` against `components.schemas.<name>`; empty when it conforms. */
export function schemaErrors(name: string, value: unknown): string[] {
  return errorsOf(validator(`/components/schemas/${pointerEscape(name)}`), value);
}

/** Errors of `value` against the 200 JSON response of `method path` (a path as the document writes it). */
export function responseErrors(method: 'get' | 'post' | 'put' | 'delete', path: string, value: unknown): string[] {
  return errorsOf(
    validator(`/paths/${pointerEscape(path)}/${method}/responses/200/content/application~1json/schema`),
    value,
  );
}
