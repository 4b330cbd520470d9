/**
 * Where in the query an engine error points. SQLite names the token, not an offset
 * (`near "FORM": syntax error`, `no such column: nope`, `no such table: main.events`), so the position is
 * the first place that token occurs outside strings and comments; null when it cannot be found.
 */

export interface ErrorPosition {
  /** Offsets into the query text, `to` excluded. */
  from: number;
  to: number;
  /** 1-based, for people. */
  line: number;
  column: number;
}

const PATTERNS: RegExp[] = [
  /near "((?:[^"]|"")+)": syntax error/,
  /no such (?:column|table|function): ([^\s,]+)/,
  /ambiguous column name: ([^\s,]+)/,
  /wrong number of arguments to function ([A-Za-z_][A-Za-z0-9_]*)\(\)/,
];

/** The query with string literals, quoted names' quotes kept, and comments blanked (same length). */
function codeOnly(query: string): string {
  let out = '';
  let i = 0;
  while (i < query.length) {
    const ch = query[i] as string;
    const next = query[i + 1];
    if (ch === "'") {
      const end = closing(query, i, "'");
      out += ` ${' '.repeat(end - i - 1)}`;
      i = end;
    } else if (ch === '-' && next === '-') {
      const nl = query.indexOf('\n', i);
      const end = nl < 0 ? query.length : nl;
      out += ' '.repeat(end - i);
      i = end;
    } else if (ch === '/' && next === '*') {
      const close = query.indexOf('*/', i + 2);
      const end = close < 0 ? query.length : close + 2;
      out += query.slice(i, end).replace(/[^\n]/g, ' ');
      i = end;
    } else {
      out += ch;
      i += 1;
    }
  }
  return out;
}

/** Index just past the closing quote of a literal opened at `start` (doubled quotes stay inside). */
function closing(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) i += 2;
      else return i + 1;
    } else i += 1;
  }
  return text.length;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function toPosition(query: string, from: number, to: number): ErrorPosition {
  const before = query.slice(0, from);
  const line = before.split('\n').length;
  const column = from - (before.lastIndexOf('\n') + 1) + 1;
  return { from, to, line, column };
}

export function errorPosition(query: string, message: string | null | undefined): ErrorPosition | null {
  if (!message) return null;
  const code = codeOnly(query);
  for (const pattern of PATTERNS) {
    const m = pattern.exec(message);
    if (!m?.[1]) continue;
    const raw = m[1].replace(/""/g, '"');
    // `main.events`: SQLite adds the schema; the query may say `events` or `db.events`.
    const names = [raw, raw.replace(/^main\./, '')];
    for (const name of names) {
      const word = /^\w+$/.test(name);
      const re = new RegExp(word ? `(?<!\\w)${escapeRegExp(name)}(?!\\w)` : escapeRegExp(name), word ? 'i' : '');
      const found = re.exec(code);
      if (found) return toPosition(query, found.index, found.index + name.length);
      const lastPart = name.split('.').pop() ?? name;
      if (lastPart !== name) {
        const tail = new RegExp(`(?<!\\w)${escapeRegExp(lastPart)}(?!\\w)`, 'i').exec(code);
        if (tail) return toPosition(query, tail.index, tail.index + lastPart.length);
      }
    }
  }
  // "incomplete input": the query ends too early; point at its end.
  if (/incomplete input/.test(message)) {
    const end = query.trimEnd().length;
    return toPosition(query, Math.max(0, end - 1), end);
  }
  return null;
}
