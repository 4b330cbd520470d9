import { Ajv, type ValidateFunction } from 'ajv';
import { dwh } from './contracts/dwh';
import { type Contract, jsonSchemaDocument, jsonSchemaOf } from './contracts/shape';
import { v3 } from './contracts/v3';

/**
 * Checks wire bodies against the facts of the public API descriptions kept in `./contracts/` (field names,
 * types, required lists; each file names the description it records): `v3` (the v3 API) and `dwh` (the `/v1`
 * data-warehouse sync API). Nothing outside the repository is read.
 */
const contracts = { v3, dwh } satisfies Record<string, Contract>;
type Document = keyof typeof contracts;

let ajv: Ajv | null = null;
const compiled = new Map<string, ValidateFunction>();

function validator(doc: Document, key: string, shape: () => Contract['schemas'][string] | undefined) {
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: true });
    for (const [id, contract] of Object.entries(contracts)) ajv.addSchema(jsonSchemaDocument(contract, id));
  }
  const cacheKey = `${doc}:${key}`;
  let v = compiled.get(cacheKey);
  if (!v) {
    const found = shape();
    if (found === undefined) throw new Error(`${key} is not in the ${doc} contract facts (src/testing/contracts/)`);
    v = ajv.compile(jsonSchemaOf(found, doc));
    compiled.set(cacheKey, v);
  }
  return v;
}

function errorsOf(v: ValidateFunction, value: unknown): string[] {
  return v(value)
    ? []
    : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** Errors of `value` against the named schema of a contract (the v3 one by default); empty when it conforms. */
export function schemaErrors(name: string, value: unknown, doc: Document = 'v3'): string[] {
  return errorsOf(
    validator(doc, name, () => (name in contracts[doc].schemas ? `@${name}` : undefined)),
    value,
  );
}

/** Errors of `value` against the 200 JSON answer of `method path` (a path as the description writes it). */
export function responseErrors(
  method: 'get' | 'post' | 'put' | 'delete',
  path: string,
  value: unknown,
  doc: Document = 'v3',
): string[] {
  const key = `${method} ${path}`;
  return errorsOf(
    validator(doc, key, () => contracts[doc].responses[key]),
    value,
  );
}
