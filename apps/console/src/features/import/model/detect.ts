import type { FileKind, TextEncoding } from './types';

/** The kind of a file from its name, falling back to its first bytes. */
export function detectKind(name: string, head: Uint8Array): FileKind {
  const lower = name.toLowerCase();
  if (lower.endsWith('.msgpack.gz') || lower.endsWith('.mpk.gz')) return 'msgpack';
  if (lower.endsWith('.tsv') || lower.endsWith('.tab')) return 'tsv';
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  if (lower.endsWith('.csv')) return 'csv';
  // gzip magic: a ready-made part under another name.
  if (head[0] === 0x1f && head[1] === 0x8b) return 'msgpack';
  const text = new TextDecoder()
    .decode(head.subarray(0, 4096))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith('[')) return 'json';
  if (text.startsWith('{')) return lower.endsWith('.json') && !/}\s*\r?\n\s*{/.test(text) ? 'json' : 'jsonl';
  return text.includes('\t') && !text.split('\n')[0]?.includes(',') ? 'tsv' : 'csv';
}

/** What decoding a file's bytes found. */
export interface DecodedText {
  text: string;
  /** A byte order mark was at the start (it is dropped). */
  bom: boolean;
  /** Byte sequences that are not valid in the chosen encoding (each became U+FFFD). */
  invalid: number;
  /** 1-based line of the first invalid sequence, or null. */
  firstInvalidLine: number | null;
}

/** Decodes bytes, noting a BOM and counting invalid sequences instead of failing on them. */
export function decodeText(bytes: Uint8Array, encoding: TextEncoding): DecodedText {
  const bom =
    encoding === 'utf-16le'
      ? bytes[0] === 0xff && bytes[1] === 0xfe
      : encoding === 'utf-16be'
        ? bytes[0] === 0xfe && bytes[1] === 0xff
        : bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = new TextDecoder(encoding).decode(bytes);
  let invalid = 0;
  let firstInvalidLine: number | null = null;
  // windows-1252 maps every byte, so only the Unicode encodings can meet invalid sequences.
  if (encoding !== 'windows-1252') {
    let at = text.indexOf('\uFFFD');
    if (at >= 0) firstInvalidLine = countLines(text, at);
    while (at >= 0) {
      invalid += 1;
      at = text.indexOf('\uFFFD', at + 1);
    }
  }
  return { text, bom, invalid, firstInvalidLine };
}

function countLines(text: string, end: number): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) lines += 1;
  return lines;
}

/** Whether the bytes look like UTF-16 LE (many zero high bytes): suggests the encoding to read them with. */
export function looksUtf16le(head: Uint8Array): boolean {
  return utf16Of(head) === 'utf-16le';
}

/**
 * UTF-16 by its byte order mark, or by zero bytes: ASCII text in UTF-16 has a zero in every other byte,
 * the odd ones in little-endian order, the even ones in big-endian order.
 */
export function utf16Of(head: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const n = Math.min(head.length, 512);
  if (n <= 8) return null;
  let odd = 0;
  let even = 0;
  for (let i = 0; i < n; i++) {
    if (head[i] !== 0) continue;
    if (i % 2 === 1) odd += 1;
    else even += 1;
  }
  if (odd > n / 4 && odd > even * 2) return 'utf-16le';
  if (even > n / 4 && even > odd * 2) return 'utf-16be';
  return null;
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * Whether the first row of delimited data names the columns: every cell is filled, distinct and not a
 * number, while some column below holds numbers, or the row looks like identifiers (no spaces, short).
 */
export function detectHeader(rows: string[][]): boolean {
  const [first, ...rest] = rows;
  if (!first || first.length === 0) return false;
  const cells = first.map((c) => c.trim());
  if (cells.some((c) => c === '' || NUMBER.test(c))) return false;
  if (new Set(cells).size !== cells.length) return false;
  if (rest.length === 0) return true;
  const numericBelow = cells.some((_, i) => rest.some((r) => NUMBER.test((r[i] ?? '').trim())));
  const identifierLike = cells.every((c) => /^[\p{L}_][\p{L}\p{N}_ .-]{0,63}$/u.test(c));
  const repeatedBelow = rest.some((r) => r.some((v, i) => v.trim() === cells[i]));
  return !repeatedBelow && (numericBelow || identifierLike);
}
