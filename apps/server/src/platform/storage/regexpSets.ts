/**
 * Sets of code points for the RE2-to-ARE translation (postgresRegexp.ts): the ASCII classes RE2 knows,
 * Unicode simple case folding, and writing a set as an ARE bracket expression of explicit code points.
 */

export type Range = [number, number];

const MAX_CODE = 0x10ffff;

export const WORD: Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
export const PERL: Record<string, Range[]> = {
  d: [[0x30, 0x39]],
  s: [
    [0x09, 0x0a],
    [0x0c, 0x0d],
    [0x20, 0x20],
  ],
  w: WORD,
};
export const POSIX: Record<string, Range[]> = {
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
/** Characters that are the same letter in another case (Unicode simple case folding, built once when needed). */
let orbits: Map<number, number[]> | null = null;
export function caseOrbit(cp: number): number[] {
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

export function normalize(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function complement(ranges: Range[]): Range[] {
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
export function fold(ranges: Range[]): Range[] {
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
export function char(cp: number): string {
  if (cp === 0) return '[^\\u0001-\\U0010ffff]';
  return /[0-9A-Za-z]/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : hex(cp);
}

/** A bracket expression of the ranges; NUL and the surrogates (never in text) are left out. */
export function bracket(ranges: Range[], negated: boolean): string {
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
