import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../dwh/testing/postgres';
import { ApiError } from '../errors';
import { compilePattern } from '../regexp';
import { re2ToPostgres } from './postgresRegexp';

/**
 * RE2 patterns translated to PostgreSQL AREs match exactly the values RE2 matches: every pattern below runs
 * on RE2 (re2js) and on a real PostgreSQL against every value, and the answers must agree.
 */

const VALUES = [
  '',
  'a',
  'A',
  'abc',
  'ABC',
  'aBc',
  'a.b',
  'axb',
  'a\nb',
  'line1\nline2\n',
  'foo bar',
  'foo_bar',
  'foobar',
  '42',
  '3.14',
  '-7',
  'x@example.com',
  'bob@test.org',
  'tab\there',
  'é',
  'École',
  'straße',
  'ΣΑΣ',
  'σας',
  '\u212a',
  'k',
  'K',
  'ſ',
  's',
  '😀 smile',
  '{,3}',
  'a{,3}',
  ']',
  '-',
  '\\',
  '^$',
  'a'.repeat(300),
  'a'.repeat(1000),
  `${'a'.repeat(5000)}b`,
  'aaab'.repeat(1000),
  "' OR 1=1 --",
];

const PATTERNS = [
  'a',
  '^a',
  'c$',
  '^abc$',
  'a.b',
  '(?s)a.b',
  'a\\.b',
  '[a-c]+',
  '[^a-c]',
  '[]a]',
  '[a-]',
  '[a-b-c]',
  '[\\d-z]',
  '\\d+',
  '\\D',
  '\\s',
  '\\S+',
  '\\w+',
  '\\W',
  '[[:alpha:]]+',
  '[[:^alpha:]]',
  '[[:punct:]]',
  '[[:space:]]',
  '\\bbar',
  'o\\b',
  '\\Boo',
  '(?i)abc',
  '(?i)ABC',
  'a(?i)bc',
  '(?i:B)c',
  '(?:x(?i)b|c)',
  '(?i)k',
  '(?i)[k]',
  '(?i)[^k]',
  '(?i)\\W',
  '(?i)[[:^lower:]]',
  '(?i)s',
  '(?i)σ',
  '(?i)straSSe',
  '(?i)é',
  '(?m)^line2$',
  '(?m)1$',
  '^line2',
  'line1$',
  '(?U)a+b',
  'a*?b',
  'a{3}',
  'a{2,}',
  'a{,3}',
  'a{300}',
  'a{256,}',
  '^a{1000}$',
  '^a{2,1000}$',
  '^(a+)+$',
  '(a|aa)*b$',
  '(?P<word>foo)',
  '(?<word>bar)',
  '\\Qa.b\\E',
  '\\Q{,3}',
  'x|',
  '|z',
  '()',
  '\\A\\d',
  '\\d\\z',
  '\\x41',
  '\\x{1F600}',
  '\\t',
  '\\n',
  '\\141',
  '[\\x{e9}-\\x{ec}]',
  '😀',
  '[😀]',
  '\\{',
  '\\\\',
  '\\^\\$',
  "^' OR",
  '^[a-c].*@example\\.com$',
  '.*',
  '^$',
  '^*a',
  '[^\\n]+\\n',
];

let server: TestPostgres;
let client: pg.Client;

beforeAll(async () => {
  server = startTestPostgres();
  client = new pg.Client({ connectionString: server.url });
  await client.connect();
}, 120_000);

afterAll(async () => {
  await client?.end();
  server?.stop();
});

describe('RE2 patterns on PostgreSQL', () => {
  it.each(PATTERNS)('%s matches what RE2 matches', async (pattern) => {
    const re = compilePattern(pattern);
    const translated = re2ToPostgres(pattern);
    const { rows } = await client.query<{ v: string; m: boolean }>(
      'SELECT v, v ~ $1 AS m FROM unnest($2::text[]) AS v',
      [translated, VALUES],
    );
    const expected = VALUES.map((v) => ({ v, m: re.test(v) }));
    expect(rows, translated).toEqual(expected);
  });

  it('refuses Unicode classes, which PostgreSQL has no equivalent for, with a 400', () => {
    for (const pattern of ['\\pL', '\\p{Greek}', '[\\PN]']) {
      compilePattern(pattern);
      let error: unknown;
      try {
        re2ToPostgres(pattern);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      expect((error as ApiError).message).toContain('Unicode classes');
    }
  });
});
