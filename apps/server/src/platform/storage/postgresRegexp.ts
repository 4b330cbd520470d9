import { badRequest } from '../errors';
import { bracket, caseOrbit, char, complement, fold, PERL, POSIX, type Range, WORD } from './regexpSets';

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

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
}

const ARE_MAX_COUNT = 255;
const ESCAPES: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };

const unsupported = (what: string) =>
  badRequest(
    `This server's PostgreSQL backend cannot run ${what} in a regular expression; rewrite the pattern without it.`,
  );

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
