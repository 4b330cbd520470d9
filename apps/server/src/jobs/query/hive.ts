import { columnNameForKey } from '../../data';
import { ApiError } from '../../platform/errors';
import { QueryRefused, type Token, tokenize } from './dialect';

/**
 * HiveQL → Presto dialect: a pre-pass for `hive` jobs (the clients' default type), whose output is the
 * ordinary Presto-dialect text every translator takes unchanged (DuckDB's and PostgreSQL's). It rewrites
 * Hive's lexical forms and functions into their Presto equivalents and refuses, naming it, what has none
 * here. Rewrites never touch comments; string contents only change quoting. See docs/query-dialect.md.
 */

const refuse = (construct: string, instead: string): never => {
  throw new QueryRefused(`HiveQL ${construct} is not supported: ${instead}`);
};

/** Hive string literal (single or double quotes, backslash escapes) as a Presto literal. */
function hiveString(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[++i] as string;
    out += { n: '\n', t: '\t', r: '\r', '0': '\0' }[n] ?? n;
  }
  return `'${out.replaceAll("'", "''")}'`;
}

/** Hive's tokens: strings in either quote with backslash escapes, backquoted names; the rest as Presto. */
function hiveTokens(sql: string): Token[] {
  const tokens: Token[] = [];
  let plain = 0;
  const flush = (end: number) => {
    if (end > plain) tokens.push(...tokenize(sql.slice(plain, end)));
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      flush(i);
      let j = i + 1;
      while (j < sql.length && sql[j] !== c) j += c !== '`' && sql[j] === '\\' ? 2 : 1;
      if (j >= sql.length) refuse('text with an unclosed quote', `close the ${c} opened at character ${i + 1}.`);
      const body = sql.slice(i + 1, j);
      if (c === '`') tokens.push({ kind: 'quoted', text: `"${body.replaceAll('"', '""')}"` });
      else tokens.push({ kind: 'string', text: hiveString(body) });
      i = j + 1;
      plain = i;
    } else i++;
  }
  flush(sql.length);
  return tokens;
}

const significant = (t: Token) => t.kind !== 'space' && t.kind !== 'comment';
const upper = (t: Token | undefined) => (t?.kind === 'word' ? t.text.toUpperCase() : '');

/** The TD functions the dialect runs; any other `TD_*` call is refused by name. */
export const TD_FUNCTIONS = [
  'TD_TIME_RANGE',
  'TD_INTERVAL',
  'TD_TIME_FORMAT',
  'TD_TIME_PARSE',
  'TD_TIME_ADD',
  'TD_DATE_TRUNC',
  'TD_SCHEDULED_TIME',
] as const;

/** Words that start a statement with no equivalent here, each with what to do instead. */
const REFUSED_FIRST: Record<string, [string, string]> = {
  SET: ['SET', 'session settings are not taken; remove the SET statement.'],
  ADD: ['ADD JAR / ADD FILE', 'user code cannot be loaded.'],
  CREATE: ['CREATE', 'queries only read; load data with bulk import or the ingestion APIs.'],
};

/** Clauses (a word and BY) with no equivalent here. */
const REFUSED_BY: Record<string, string> = {
  DISTRIBUTE: 'remove it: one engine runs the whole query.',
  CLUSTER: 'use ORDER BY.',
};

/** Hive functions with a Presto name of their own (same arguments). */
const RENAMED: Record<string, string> = {
  GET_JSON_OBJECT: 'json_extract_scalar',
  NVL: 'coalesce',
  SIZE: 'cardinality',
};

/** Hive table-generating functions other than explode, refused by name. */
const UDTFS = new Set(['POSEXPLODE', 'JSON_TUPLE', 'PARSE_URL_TUPLE', 'INLINE', 'STACK']);

const JAVA_TO_MYSQL: [RegExp, string][] = [
  [/^yyyy/, '%Y'],
  [/^yy/, '%y'],
  [/^MM/, '%m'],
  [/^dd/, '%d'],
  [/^HH/, '%H'],
  [/^mm/, '%i'],
  [/^ss/, '%s'],
  [/^SSS/, '%f'],
];

/** A Java date pattern (Hive's `unix_timestamp(text, pattern)`) as date_parse's MySQL specifiers. */
function mysqlFormat(literal: string): string {
  let pattern = literal.slice(1, -1).replaceAll("''", "'");
  let out = '';
  while (pattern.length > 0) {
    const hit = JAVA_TO_MYSQL.find(([re]) => re.test(pattern));
    if (hit) {
      out += hit[1];
      pattern = pattern.replace(hit[0], '');
    } else if (/^[A-Za-z]/.test(pattern)) {
      return refuse(
        `unix_timestamp with the pattern letter "${pattern[0]}"`,
        'use yyyy, yy, MM, dd, HH, mm, ss and SSS, or TD_TIME_PARSE.',
      );
    } else {
      out += pattern[0] === '%' ? '%%' : pattern[0];
      pattern = pattern.slice(1);
    }
  }
  return `'${out.replaceAll("'", "''")}'`;
}

class Rewriter {
  constructor(private readonly tokens: Token[]) {}

  private next(from: number): number {
    let i = from;
    while (i < this.tokens.length && !significant(this.tokens[i] as Token)) i++;
    return i;
  }

  private closing(open: number): number {
    let depth = 0;
    for (let i = open; i < this.tokens.length; i++) {
      const t = this.tokens[i] as Token;
      if (t.kind !== 'punct') continue;
      if (t.text === '(') depth++;
      else if (t.text === ')' && --depth === 0) return i;
    }
    return refuse('text with an unbalanced "("', 'close every parenthesis.');
  }

  /** The rewritten arguments of the call whose "(" is at `open`, split at top-level commas. */
  private args(open: number, close: number): string[] {
    const parts: string[] = [];
    let depth = 0;
    let start = open + 1;
    for (let i = open + 1; i <= close; i++) {
      const t = this.tokens[i] as Token;
      if (t.kind === 'punct' && t.text === '(') depth++;
      else if (t.kind === 'punct' && t.text === ')') depth--;
      if (i === close || (depth === 0 && t.kind === 'punct' && t.text === ',')) {
        parts.push(this.rewrite(start, i).trim());
        start = i + 1;
      }
    }
    return parts.length === 1 && parts[0] === '' ? [] : parts;
  }

  /** Rewrites tokens [from, to). */
  rewrite(from: number, to: number): string {
    let out = '';
    let i = from;
    while (i < to) {
      const t = this.tokens[i] as Token;
      const word = upper(t);
      const after = this.next(i + 1);
      const call = after < to && this.tokens[after]?.text === '(';
      if (word === 'INSERT') {
        refuse('INSERT OVERWRITE / INSERT INTO', 'queries only read; read the rows from /v3/job/result/<job_id>.');
      }
      if (REFUSED_BY[word] && upper(this.tokens[after]) === 'BY') refuse(`${word} BY`, REFUSED_BY[word] as string);
      if (word === 'V' && this.tokens[after]?.text === '[') {
        const column = this.recordKey(after);
        if (column) {
          out += column.text;
          i = column.end;
          continue;
        }
      }
      if (word === 'RLIKE') {
        out += 'REGEXP';
        i++;
        continue;
      }
      if (word === 'SORT' && upper(this.tokens[after]) === 'BY') {
        out += 'ORDER';
        i++;
        continue;
      }
      if (word === 'LATERAL' && upper(this.tokens[after]) === 'VIEW') {
        const [text, end] = this.lateralView(after);
        out += text;
        i = end;
        continue;
      }
      if (call) {
        const close = this.closing(after);
        const rewritten = this.call(word, t.text, after, close);
        if (rewritten !== null) {
          out += rewritten;
          i = close + 1;
          continue;
        }
      }
      out += t.text;
      i++;
    }
    return out;
  }

  /**
   * `v['key']`, Treasure Data's whole-record map, read as the key's column (the ingestion key rule, so
   * `v['userId']` reads `userid`); null when the subscript is not one text literal.
   */
  private recordKey(open: number): { text: string; end: number } | null {
    const at = this.next(open + 1);
    const key = this.tokens[at];
    const close = this.next(at + 1);
    if (key?.kind !== 'string' || this.tokens[close]?.text !== ']') return null;
    const raw = key.text.slice(1, -1).replaceAll("''", "'");
    try {
      return { text: `"${columnNameForKey(raw)}"`, end: close + 1 };
    } catch (err) {
      if (err instanceof ApiError) refuse(`v['${raw.slice(0, 40)}']`, err.message);
      throw err;
    }
  }

  /** A function call rewritten, or null to keep it as written (its arguments are rewritten on the way). */
  private call(word: string, name: string, open: number, close: number): string | null {
    if (word === 'TABLESAMPLE') refuse('TABLESAMPLE', 'filter with a condition, e.g. on time, or add a LIMIT.');
    if (word === 'TRANSFORM' && upper(this.tokens[this.next(close + 1)]) === 'USING') {
      refuse('TRANSFORM … USING', 'scripts cannot run in queries.');
    }
    if (word.startsWith('TD_') && !(TD_FUNCTIONS as readonly string[]).includes(word)) {
      refuse(`function ${name}`, `the TD functions here are ${TD_FUNCTIONS.join(', ')}.`);
    }
    if (word === 'EXPLODE' || UDTFS.has(word)) {
      refuse(`${name} outside LATERAL VIEW`, 'use LATERAL VIEW explode(array_or_map) t AS col.');
    }
    const renamed = RENAMED[word];
    if (renamed) return `${renamed}(${this.args(open, close).join(', ')})`;
    if (word === 'COLLECT_SET' || word === 'COLLECT_LIST') {
      const args = this.args(open, close);
      if (args.length !== 1) refuse(`${name} with other than one argument`, 'pass one column.');
      // Hive leaves NULLs out; Presto's array_agg keeps them.
      const distinct = word === 'COLLECT_SET' ? 'DISTINCT ' : '';
      return `array_agg(${distinct}${args[0]}) FILTER (WHERE ${args[0]} IS NOT NULL)`;
    }
    if (word === 'FROM_UNIXTIME') {
      const args = this.args(open, close);
      if (args.length < 1 || args.length > 2) refuse('from_unixtime without 1 or 2 arguments', 'pass the time.');
      return `format_datetime(from_unixtime(${args[0]}), ${args[1] ?? "'yyyy-MM-dd HH:mm:ss'"})`;
    }
    if (word === 'UNIX_TIMESTAMP') {
      const args = this.args(open, close);
      if (args.length === 0) return 'CAST(to_unixtime(now()) AS bigint)';
      if (args.length === 2 && !/^'.*'$/s.test(args[1] as string)) {
        refuse('unix_timestamp with a pattern that is not a literal', "write the pattern as text, e.g. 'yyyy/MM/dd'.");
      }
      if (args.length > 2) refuse('unix_timestamp with more than 2 arguments', 'pass text and a pattern.');
      const format = args.length === 2 ? mysqlFormat(args[1] as string) : "'%Y-%m-%d %H:%i:%s'";
      return `CAST(to_unixtime(date_parse(${args[0]}, ${format})) AS bigint)`;
    }
    return null;
  }

  /**
   * `LATERAL VIEW explode(x) t AS a[, b]` → `CROSS JOIN UNNEST(x) AS t(a[, b])`. Returns the text and
   * the index after the clause. OUTER and other table functions are refused by name.
   */
  private lateralView(view: number): [string, number] {
    let i = this.next(view + 1);
    if (upper(this.tokens[i]) === 'OUTER') {
      refuse('LATERAL VIEW OUTER', 'use LATERAL VIEW (rows whose array is empty or NULL are left out).');
    }
    const fn = this.tokens[i] as Token | undefined;
    const open = this.next(i + 1);
    if (!fn || this.tokens[open]?.text !== '(')
      refuse('LATERAL VIEW without a function', 'write LATERAL VIEW explode(col) t AS c.');
    if (upper(fn) !== 'EXPLODE') {
      refuse(`LATERAL VIEW ${fn?.text}`, 'only explode is supported: LATERAL VIEW explode(array_or_map) t AS col.');
    }
    const close = this.closing(open);
    const args = this.args(open, close);
    if (args.length !== 1) refuse('explode with other than one argument', 'explode one array or map.');
    i = this.next(close + 1);
    const alias = this.tokens[i];
    if (!alias || (alias.kind !== 'word' && alias.kind !== 'quoted') || upper(alias) === 'AS') {
      refuse('LATERAL VIEW without a table alias', 'name it: LATERAL VIEW explode(col) t AS c.');
    }
    i = this.next(i + 1);
    if (upper(this.tokens[i]) !== 'AS') refuse('LATERAL VIEW without column names', 'name them: ... t AS c.');
    const columns: string[] = [];
    i = this.next(i + 1);
    for (;;) {
      const c = this.tokens[i];
      if (!c || (c.kind !== 'word' && c.kind !== 'quoted'))
        refuse('LATERAL VIEW column list', 'name one column, or two for a map.');
      columns.push((c as Token).text);
      const comma = this.next(i + 1);
      if (this.tokens[comma]?.text !== ',') {
        i = comma;
        break;
      }
      i = this.next(comma + 1);
    }
    if (columns.length > 2)
      refuse('LATERAL VIEW with more than two columns', 'explode gives one (array) or two (map).');
    return [`CROSS JOIN UNNEST(${args[0]}) AS ${(alias as Token).text}(${columns.join(', ')}) `, i];
  }
}

/** The HiveQL query as Presto-dialect text; QueryRefused names a construct that has no translation. */
export function hiveToPresto(sql: string): string {
  const tokens = hiveTokens(sql);
  const first = upper(tokens.find(significant));
  if (REFUSED_FIRST[first]) {
    const [construct, instead] = REFUSED_FIRST[first] as [string, string];
    refuse(construct, instead);
  }
  return new Rewriter(tokens).rewrite(0, tokens.length);
}
