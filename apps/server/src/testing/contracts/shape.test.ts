import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { type Contract, jsonSchemaDocument, jsonSchemaOf, type Shape } from './shape';

const contract: Contract = {
  schemas: {
    Item: { fields: { name: 'string', note: 'string|null' }, required: ['name'], closed: true },
    Tags: { values: 'integer' },
  },
  responses: {},
};

function check(shape: Shape, value: unknown): boolean {
  const ajv = new Ajv({ strict: false });
  ajv.addSchema(jsonSchemaDocument(contract, 'c'));
  return ajv.compile(jsonSchemaOf(shape, 'c'))(value) as boolean;
}

describe('the contract facts form', () => {
  it('reads fields, required lists, closed objects and nullable types', () => {
    expect(check('@Item', { name: 'a', note: null })).toBe(true);
    expect(check('@Item', { note: 'x' })).toBe(false);
    expect(check('@Item', { name: 'a', extra: 1 })).toBe(false);
    expect(check('@Item', { name: 1 })).toBe(false);
    expect(check('@Item', 'not an object')).toBe(false);
  });

  it('reads arrays, one field of a named schema, open maps and alternatives', () => {
    expect(check(['@Item'], [{ name: 'a' }])).toBe(true);
    expect(check(['@Item'], [{ name: 2 }])).toBe(false);
    expect(check('@Item.note', null)).toBe(true);
    expect(check('@Item.note', 3)).toBe(false);
    expect(check('@Tags', { a: 1 })).toBe(true);
    expect(check('@Tags', { a: 'x' })).toBe(false);
    expect(check({ oneOf: ['integer', 'boolean'] }, true)).toBe(true);
    expect(check({ oneOf: ['integer', 'boolean'] }, 'x')).toBe(false);
    expect(check({ type: 'string', enum: ['a'], pattern: '^a$' }, 'b')).toBe(false);
  });
});
