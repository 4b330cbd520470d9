import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

/**
 * Validates wire bodies against the public OpenAPI descriptions in the shared reference folder beside the
 * repository (`SVC_SHARED_DIR` overrides where that is): td-api-v3.openapi.yml (the v3 API) and
 * dwh-integration.openapi.yml (the `/v1` data-warehouse sync API). Both are OpenAPI 3.0: Ajv resolves
 * their `$ref`s and understands `nullable`; descriptive keywords (`example`, `deprecated`) are ignored.
 */
const here = dirname(fileURLToPath(import.meta.url));
const sharedDir = process.env.SVC_SHARED_DIR ?? resolve(here, '../../../../../shared');
const documents = { v3: 'td-api-v3.openapi.yml', dwh: 'dwh-integration.openapi.yml' } as const;
type Document = keyof typeof documents;

let ajv: Ajv | null = null;
const compiled = new Map<string, ValidateFunction>();

function validator(pointer: string, doc: Document = 'v3'): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    for (const [id, name] of Object.entries(documents)) {
      ajv.addSchema(parse(readFileSync(resolve(sharedDir, 'reference', name), 'utf8')) as object, id);
    }
  }
  const key = `${doc}#${pointer}`;
  let v = compiled.get(key);
  if (!v) {
    v = ajv.compile({ $ref: key });
    compiled.set(key, v);
  }
  return v;
}

const pointerEscape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function errorsOf(v: ValidateFunction, value: unknown): string[] {
  return v(value)
    ? []
    : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** Errors of `value` against `components.schemas.<name>` of a document (the v3 one by default); empty when it conforms. */
export function schemaErrors(name: string, value: unknown, doc: Document = 'v3'): string[] {
  return errorsOf(validator(`/components/schemas/${pointerEscape(name)}`, doc), value);
}

/** Errors of `value` against the 200 JSON response of `method path` (a path as the document writes it). */
export function responseErrors(
  method: 'get' | 'post' | 'put' | 'delete',
  path: string,
  value: unknown,
  doc: Document = 'v3',
): string[] {
  return errorsOf(
    validator(`/paths/${pointerEscape(path)}/${method}/responses/200/content/application~1json/schema`, doc),
    value,
  );
}
