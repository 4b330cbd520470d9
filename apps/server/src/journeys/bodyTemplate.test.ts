import { describe, expect, it } from 'vitest';
import { renderTemplate, templateFields, templateProblems } from './bodyTemplate';

describe('body templates', () => {
  const known = new Set(['email', 'tier', 'age', 'tags']);

  it('escapes values inside strings and writes JSON values outside them', () => {
    const template = '{"email": "{{email}}", "tier": "{{ attributes.tier }}", "age": {{age}}, "tags": {{tags}}}';
    const body = renderTemplate(template, { email: 'a"b\\c\n@x', tier: 3, age: null, tags: ['x', 'y'] });
    expect(JSON.parse(body)).toEqual({ email: 'a"b\\c\n@x', tier: '3', age: null, tags: ['x', 'y'] });
  });

  it('keeps a quote escaped in the template from flipping string state', () => {
    const body = renderTemplate('{"note": "say \\"{{email}}\\"", "age": {{age}}}', { email: 'x', age: 7 });
    expect(JSON.parse(body)).toEqual({ note: 'say "x"', age: 7 });
  });

  it('lists the fields a template uses', () => {
    expect(templateFields('{"a": "{{email}}", "b": "{{attributes.email}}", "c": {{age}}}')).toEqual(['email', 'age']);
  });

  it('accepts a valid template and explains each fault', () => {
    expect(templateProblems('{"email": "{{email}}"}', known)).toEqual([]);
    expect(templateProblems('{"x": "{{zip}}"}', known)[0]).toContain('"zip"');
    expect(templateProblems('{"x": "{{a b}}"}', known)[0]).toContain('is not a field name');
    expect(templateProblems('{"x": {{email}', known)[0]).toContain('not JSON');
  });
});
