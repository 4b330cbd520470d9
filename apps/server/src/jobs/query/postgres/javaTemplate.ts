import { javaPatternParts } from '../timeFormats';

/**
 * A Java date pattern as a PostgreSQL `to_char` template, when every part has an exact equivalent there, so
 * the common TD_TIME_FORMAT(time, 'yyyy-MM-dd') runs as one native call. Null when a part has none (zone names
 * and offsets, k, K, u, unusual widths): svc_fn.format_java then formats the pattern part by part.
 */

const FIELDS: Record<string, Record<number, string>> = {
  y: { 2: 'YY', 4: 'YYYY' },
  M: { 1: 'FMMM', 2: 'MM', 3: 'Mon', 4: 'FMMonth' },
  d: { 1: 'FMDD', 2: 'DD' },
  D: { 3: 'DDD' },
  E: { 1: 'Dy', 2: 'Dy', 3: 'Dy', 4: 'FMDay' },
  a: { 1: 'AM' },
  H: { 1: 'FMHH24', 2: 'HH24' },
  h: { 1: 'FMHH12', 2: 'HH12' },
  m: { 1: 'FMMI', 2: 'MI' },
  s: { 1: 'FMSS', 2: 'SS' },
  S: { 3: 'MS' },
};

/** Text inside a to_char template: double-quoted, with `"` and `\` escaped by a backslash. */
const quoted = (text: string) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

export function javaTemplate(pattern: string): string | null {
  let template = '';
  for (const part of javaPatternParts(pattern)) {
    if ('text' in part) {
      template += quoted(part.text);
      continue;
    }
    const field = FIELDS[part.letter]?.[Math.min(part.n, part.letter === 'M' || part.letter === 'E' ? 4 : part.n)];
    if (!field) return null;
    template += field;
  }
  return template;
}
