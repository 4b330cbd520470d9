import { describe, expect, it } from 'vitest';
import { errorPosition } from './errorPosition';

describe('errorPosition', () => {
  it('points at the token a syntax error is near, with line and column', () => {
    const query = 'SELECT path\nFORM pageviews';
    expect(errorPosition(query, 'near "FORM": syntax error')).toEqual({ from: 12, to: 16, line: 2, column: 1 });
  });

  it('points at an unknown column or table, whatever its case in the query', () => {
    expect(errorPosition('SELECT Nope FROM t', 'no such column: nope')).toMatchObject({ line: 1, column: 8 });
    expect(errorPosition('SELECT * FROM web.events', 'no such table: main.events')).toMatchObject({
      from: 18,
      to: 24,
    });
  });

  it('skips strings and comments that happen to hold the token', () => {
    const query = "SELECT 'nope' -- nope\n, nope FROM t";
    expect(errorPosition(query, 'no such column: nope')).toMatchObject({ line: 2, column: 3 });
  });

  it('does not match a token inside a longer name', () => {
    expect(errorPosition('SELECT nopes, nope FROM t', 'no such column: nope')).toMatchObject({ column: 15 });
  });

  it('points at the end of a query that stops too early', () => {
    expect(errorPosition('SELECT count(*) FROM', 'incomplete input')).toMatchObject({ from: 19, to: 20 });
  });

  it('is null when the message names no place', () => {
    expect(errorPosition('SELECT 1', 'Stopped: time limit of 1 s exceeded.')).toBeNull();
    expect(errorPosition('SELECT 1', null)).toBeNull();
    expect(errorPosition('SELECT 1', 'no such column: other')).toBeNull();
  });
});
