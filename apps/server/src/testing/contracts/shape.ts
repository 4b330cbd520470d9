/**
 * The project's form for the facts of a public API description that contract tests check answers against.
 *
 * A shape is one of:
 * - a type name: `'string'`, `'integer'`, `'number'`, `'boolean'`, `'object'` (any object) or `'any'`;
 *   `'string|null'` and the like when the value may also be null;
 * - `'@Name'`: the named schema of the same contract; `'@Name.field'`: one field of it;
 * - `[shape]`: an array of that shape;
 * - an object of facts: `fields` (an object with these fields), `required` (the fields it must have),
 *   `closed` (no other fields), `open` (other fields allowed, said explicitly), `values` (the shape of every
 *   other field), `items` (an array of that shape), `type`, `nullable`, `enum`, `pattern`, `min`, `max`,
 *   `minLength`, `maxLength`, `minItems`, `maxItems`, and `oneOf` / `anyOf` / `allOf` (lists of shapes).
 */
export type Shape = string | [Shape] | Facts;

export interface Facts {
  type?: string;
  nullable?: boolean;
  fields?: Record<string, Shape>;
  required?: string[];
  closed?: boolean;
  open?: boolean;
  values?: Shape;
  items?: Shape;
  enum?: unknown[];
  pattern?: string;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  oneOf?: Shape[];
  anyOf?: Shape[];
  allOf?: Shape[];
}

/** Named schemas, and the 200 JSON answer of each documented route as `'<method> <path>'`. */
export interface Contract {
  schemas: Record<string, Shape>;
  responses: Record<string, Shape>;
}

type JsonSchema = Record<string, unknown>;

/** The JSON Schema (draft 7 with OpenAPI's `nullable`) of a shape; `id` names the contract for `$ref`s. */
export function jsonSchemaOf(shape: Shape, id: string): JsonSchema {
  if (Array.isArray(shape)) return { type: 'array', items: jsonSchemaOf(shape[0], id) };
  if (typeof shape === 'string') {
    if (shape.startsWith('@')) {
      const [name, field] = shape.slice(1).split('.');
      return { $ref: `${id}#/definitions/${name}${field ? `/properties/${field}` : ''}` };
    }
    if (shape === 'any') return {};
    const [type, nullable] = shape.split('|');
    return nullable === 'null' ? { type, nullable: true } : { type };
  }
  const out: JsonSchema = {};
  const type =
    shape.type ?? (shape.fields || shape.closed || shape.values ? 'object' : shape.items ? 'array' : undefined);
  if (type) out.type = type;
  if (shape.nullable) out.nullable = true;
  if (shape.fields) {
    out.properties = Object.fromEntries(Object.entries(shape.fields).map(([k, v]) => [k, jsonSchemaOf(v, id)]));
  }
  if (shape.required) out.required = shape.required;
  if (shape.closed) out.additionalProperties = false;
  if (shape.values) out.additionalProperties = jsonSchemaOf(shape.values, id);
  if (shape.items) out.items = jsonSchemaOf(shape.items, id);
  if (shape.enum) out.enum = shape.enum;
  if (shape.pattern) out.pattern = shape.pattern;
  if (shape.min !== undefined) out.minimum = shape.min;
  if (shape.max !== undefined) out.maximum = shape.max;
  for (const k of ['minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    if (shape[k] !== undefined) out[k] = shape[k];
  }
  for (const k of ['oneOf', 'anyOf', 'allOf'] as const) {
    const list = shape[k];
    if (list) out[k] = list.map((s) => jsonSchemaOf(s, id));
  }
  return out;
}

/** One JSON Schema document holding every named schema of a contract under `definitions`. */
export function jsonSchemaDocument(contract: Contract, id: string): JsonSchema {
  return {
    $id: id,
    definitions: Object.fromEntries(Object.entries(contract.schemas).map(([k, v]) => [k, jsonSchemaOf(v, id)])),
  };
}
