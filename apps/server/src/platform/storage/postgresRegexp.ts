import { badRequest } from '../errors';

/**
 * RE2 patterns as PostgreSQL regular expressions (AREs), so a rule's Regexp matches the same values on both
 * backends. The pattern has already been compiled by RE2 (platform/regexp.ts), so its syntax is valid; this
 * parses it and writes an ARE that accepts the same strings, never relying on a construct whose meaning
 * differs between the two engines:
 *
 * - characters and classes are written as explicit code points (`\uXXXX`), Perl and POSIX classes as their
 *   ASCII ranges, `.` as "anything but a newline" unless `s` is on;
 * - flags (`i`, `m`, `s`, `U`) may be scoped in RE2 but only global in an ARE, so they are applied while
 *   writing: case folding expands characters and classes, `m` turns `^`/`$` into line boundaries;
 * - `\b`/`\B` (ASCII words in RE2, locale words in an ARE) become lookarounds on `[0-9A-Za-z_]`;
 * - counts above an ARE's limit of 255 are split into chained repetitions that accept the same counts;
 * - groups never capture (only whether a value matches counts), and laziness does not change that.
 *
 * Unicode classes (`\pL`, `\p{Greek}`) have no ARE equivalent: they are refused with a 400.
 */

type Range = [number, number];
interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
}

const MAX_CODE = 0x10ffff;
const ARE_MAX_COUNT = 255;
const WORD: Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const PERL: Record<string, Range[]> = {
  d: [[0x30, 0x39]],
  s: [
    [0x09, 0x0a],
    [0x0c, 0x0d],
    [0x20, 0x20],
  ],
  w: WORD,
};
const POSIX: Record<string, Range[]> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: WORD,
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};
const ESCAPES: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };

const unsupported = (what: string) =>
  badRequest(
    `This server's PostgreSQL backend cannot run ${what} in a regular expression; rewrite the pattern without it.`,
  );

/** Characters that are the same letter in another case (Unicode simple case folding, built once when needed). */
let orbits: Map<number, number[]> | null = null;
function caseOrbit(cp: number): number[] {
  if (!orbits) {
    /** The code point of a one-character string, or null (a mapping to several characters is no simple fold). */
    const single = (text: string) => {
      const code = text.codePointAt(0) as number;
      return text.length === (code > 0xffff ? 2 : 1) ? code : null;
    };
    const groups = new Map<number, number[]>();
    for (let c = 0; c <= 0x1ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const text = String.fromCodePoint(c);
      const upper = text.toUpperCase();
      if (upper === text && text.toLowerCase() === text) continue;
      const up = single(upper) ?? c;
      const key = single(String.fromCodePoint(up).toLowerCase()) ?? up;
      const group = groups.get(key);
      if (group) group.push(c);
      else groups.set(key, [c]);
    }
    orbits = new Map();
    for (const [key, members] of groups) {
      // A lower-case key with no mapping of its own (σ of ς) joins its group too.
      if (!members.includes(key)) members.push(key);
      if (members.length > 1) for (const m of members) orbits.set(m, members);
    }
  }
  return orbits.get(cp) ?? [cp];
}

function normalize(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(ranges: Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of normalize(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE) out.push([next, MAX_CODE]);
  return out;
}

/** Adds the other cases of every letter in the ranges (large ranges beyond the letters are left as they are). */
function fold(ranges: Range[]): Range[] {
  const out = [...ranges];
  let budget = 0x30000;
  for (const [lo, hi] of ranges) {
    for (let c = lo; c <= hi && c <= 0x1ffff && budget-- > 0; c++) {
      for (const o of caseOrbit(c)) if (o !== c) out.push([o, o]);
    }
  }
  return normalize(out);
}

const hex = (cp: number) =>
  cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\U${cp.toString(16).padStart(8, '0')}`;

/** A code point as an ARE atom; NUL (which no text holds) as a class nothing matches. */
function char(cp: number): string {
  if (cp === 0) return '[^\\u0001-\\U0010ffff]';
  return /[0-9A-Za-z]/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : hex(cp);
}

/** A bracket expression of the ranges; NUL and the surrogates (never in text) are left out. */
function bracket(ranges: Range[], negated: boolean): string {
  const parts: string[] = [];
  for (let [lo, hi] of normalize(ranges)) {
    lo = Math.max(lo, 1);
    const pieces: Range[] = hi < 0xd800 || lo > 0xdfff ? [[lo, hi]] : [];
    if (pieces.length === 0) {
      if (lo < 0xd800) pieces.push([lo, 0xd7ff]);
      if (hi > 0xdfff) pieces.push([0xe000, hi]);
    }
    for (const [a, b] of pieces) if (a <= b) parts.push(a === b ? hex(a) : `${hex(a)}-${hex(b)}`);
  }
  if (parts.length === 0) return negated ? '[\\u0001-\\U0010ffff]' : '[^\\u0001-\\U0010ffff]';
  return `[${negated ? '^' : ''}${parts.join('')}]`;
}

const W = bracket(WORD, false);

class Translator {
  private at = 0;
  constructor(private readonly p: string) {}

  private peek(offset = 0): string {
    return this.p[this.at + offset] ?? '';
  }

  private next(): string {
    const cp = this.p.codePointAt(this.at) as number;
    const c = String.fromCodePoint(cp);
    this.at += c.length;
    return c;
  }

  translate(): string {
    const out = this.alternation({ i: false, m: false, s: false });
    if (this.at < this.p.length) throw unsupported(`"${this.p.slice(this.at, this.at + 10)}"`);
    return out;
  }

  /** Branches up to the closing parenthesis (not consumed); flags set inside last to the group's end. */
  private alternation(flags: Flags): string {
    const branches: string[] = [];
    let current = '';
    while (this.at < this.p.length && this.peek() !== ')') {
      if (this.peek() === '|') {
        this.at++;
        branches.push(current);
        current = '';
        continue;
      }
      current += this.quantified(flags);
    }
    branches.push(current);
    const wrap = (b: string) => (b === '' ? '(?:)' : b);
    return branches.length === 1 ? (branches[0] as string) : branches.map(wrap).join('|');
  }

  private quantified(flags: Flags): string {
    const atom = this.atom(flags);
    if (atom === '') return '';
    let out = atom;
    for (;;) {
      const count = this.count();
      if (!count) break;
      if (this.peek() === '?') this.at++;
      out = repeat(`(?:${out})`, count[0], count[1]);
    }
    return out;
  }

  /** A repetition operator at the position: [min, max] (max -1: unbounded), or null. */
  private count(): [number, number] | null {
    const c = this.peek();
    if (c === '*' || c === '+' || c === '?') {
      this.at++;
      return c === '*' ? [0, -1] : c === '+' ? [1, -1] : [0, 1];
    }
    if (c !== '{') return null;
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.p.slice(this.at));
    if (!m) return null;
    this.at += m[0].length;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]);
    return [min, max];
  }

  /** One atom (empty for a flag setting, which only changes `flags`). */
  private atom(flags: Flags): string {
    const c = this.next();
    switch (c) {
      case '(':
        return this.group(flags);
      case '[':
        return this.cls(flags);
      case '.':
        return flags.s ? '.' : bracket([[10, 10]], true);
      case '^':
        return flags.m ? '(?:^|(?<=\\u000a))' : '^';
      case '$':
        return flags.m ? '(?:$|(?=\\u000a))' : '$';
      case '\\':
        return this.escape(flags);
      default:
        return literal(c.codePointAt(0) as number, flags);
    }
  }

  private group(flags: Flags): string {
    const rest = this.p.slice(this.at);
    const named = /^\?P?<[^>]*>/.exec(rest);
    if (named) this.at += named[0].length;
    else if (rest.startsWith('?')) {
      const m = /^\?([imsU]*)(?:-([imsU]*))?([:)])/.exec(rest);
      if (!m) throw unsupported(`the group "(${rest.slice(0, 6)}"`);
      this.at += m[0].length;
      const set = (target: Flags) => {
        for (const f of m[1] ?? '') if (f !== 'U') target[f as keyof Flags] = true;
        for (const f of m[2] ?? '') if (f !== 'U') target[f as keyof Flags] = false;
      };
      if (m[3] === ')') {
        // `(?i)`: from here to the end of the enclosing group.
        set(flags);
        return '';
      }
      const scoped = { ...flags };
      set(scoped);
      return this.closeGroup(scoped);
    }
    return this.closeGroup({ ...flags });
  }

  private closeGroup(flags: Flags): string {
    const inner = this.alternation(flags);
    if (this.next() !== ')') throw unsupported('an unclosed group');
    return `(?:${inner})`;
  }

  private escape(flags: Flags): string {
    const c = this.peek();
    if (c === 'A') return this.skip('^');
    if (c === 'z') return this.skip('$');
    if (c === 'b') return this.skip(`(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`);
    if (c === 'B') return this.skip(`(?:(?<=${W})(?=${W})|(?<!${W})(?!${W}))`);
    if (c === 'Q') {
      this.at++;
      const end = this.p.indexOf('\\E', this.at);
      const text = this.p.slice(this.at, end < 0 ? undefined : end);
      this.at = end < 0 ? this.p.length : end + 2;
      return [...text].map((ch) => literal(ch.codePointAt(0) as number, flags)).join('');
    }
    const perl = this.perlClass(flags);
    if (perl) return bracket(perl, false);
    return literal(this.escapedChar(), flags);
  }

  private skip(out: string): string {
    this.at++;
    return out;
  }

  /** `\d \D \s \S \w \W` at the position (after the backslash) as ranges; null otherwise. */
  private perlClass(flags: Flags): Range[] | null {
    const c = this.peek();
    if (c === 'p' || c === 'P') throw unsupported('Unicode classes (\\p, \\P)');
    const ranges = PERL[c.toLowerCase()];
    if (!ranges) return null;
    this.at++;
    return classSet(ranges, c !== c.toLowerCase(), flags);
  }

  /** A single character escape after the backslash: octal, hex, control letters or punctuation. */
  private escapedChar(): number {
    const c = this.next();
    if (/[0-7]/.test(c)) {
      let v = Number(c);
      for (let n = 1; n < 3 && /[0-7]/.test(this.peek()); n++) v = v * 8 + Number(this.next());
      return v;
    }
    if (c === 'x') {
      const m = /^\{([0-9A-Fa-f]+)\}|^([0-9A-Fa-f]{2})/.exec(this.p.slice(this.at));
      if (!m) throw unsupported('a malformed \\x escape');
      this.at += m[0].length;
      return Number.parseInt(m[1] ?? (m[2] as string), 16);
    }
    const control = ESCAPES[c];
    if (control !== undefined) return control;
    if (/^[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]$/.test(c)) return c.codePointAt(0) as number;
    throw unsupported(`the escape "\\${c}"`);
  }

  private cls(flags: Flags): string {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.at++;
    }
    const ranges: Range[] = [];
    let first = true;
    while (first || this.peek() !== ']') {
      if (this.at >= this.p.length) throw unsupported('an unclosed class');
      first = false;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.p.slice(this.at));
      if (posix) {
        const set = POSIX[posix[2] as string];
        if (!set) throw unsupported(`the class [:${posix[2]}:]`);
        this.at += posix[0].length;
        ranges.push(...classSet(set, posix[1] === '^', flags));
        continue;
      }
      if (this.peek() === '\\') {
        this.at++;
        const perl = this.perlClass(flags);
        if (perl) {
          ranges.push(...perl);
          continue;
        }
        this.at--;
      }
      const lo = this.classChar();
      let hi = lo;
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.at++;
        hi = this.classChar();
      }
      ranges.push(...(flags.i ? fold([[lo, hi]]) : [[lo, hi] as Range]));
    }
    this.at++;
    // Each item is folded on its own, before the class is negated, as RE2 does.
    return bracket(ranges, negated);
  }

  private classChar(): number {
    const c = this.next();
    if (c !== '\\') return c.codePointAt(0) as number;
    return this.escapedChar();
  }
}

/** A Perl or POSIX class, folded when `i` is on and then negated, as RE2 does. */
function classSet(ranges: Range[], negated: boolean, flags: Flags): Range[] {
  const folded = flags.i ? fold(ranges) : ranges;
  return negated ? complement(folded) : folded;
}

function literal(cp: number, flags: Flags): string {
  if (!flags.i) return char(cp);
  const orbit = caseOrbit(cp);
  return orbit.length > 1
    ? bracket(
        orbit.map((c): Range => [c, c]),
        false,
      )
    : char(cp);
}

/** `atom` repeated min…max times (max -1: no limit), in counts an ARE accepts (at most 255 per bound). */
function repeat(atom: string, min: number, max: number): string {
  if (max === -1) {
    if (min === 0) return `${atom}*`;
    if (min === 1) return `${atom}+`;
    return `${repeat(atom, min, min)}${atom}*`;
  }
  if (max <= ARE_MAX_COUNT) {
    if (min === 0 && max === 1) return `${atom}?`;
    return min === max ? `${atom}{${min}}` : `${atom}{${min},${max}}`;
  }
  let out = '';
  for (let left = min; left > 0; left -= ARE_MAX_COUNT) out += `${atom}{${Math.min(left, ARE_MAX_COUNT)}}`;
  for (let left = max - min; left > 0; left -= ARE_MAX_COUNT) out += `${atom}{0,${Math.min(left, ARE_MAX_COUNT)}}`;
  return out;
}

/** The ARE matching the same strings as an RE2 pattern (already checked by RE2); 400 for what has none. */
export function re2ToPostgres(pattern: string): string {
  return new Translator(pattern).translate();
}
