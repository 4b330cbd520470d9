/**
 * Webhook body templates: JSON with `{{field}}` placeholders filled from a profile. No expressions, no
 * code: a placeholder is a field name (`email`, or `attributes.email` for the same column) and nothing
 * else. Inside a JSON string a placeholder becomes the value's JSON-escaped text; outside one it becomes
 * the value as JSON (a missing value is null there and empty text inside a string). So any profile value
 * yields valid JSON when the template does.
 */

const MAX_TEMPLATE_CHARS = 8192;
const MAX_PLACEHOLDERS = 100;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const FIELD_NAME = /^(?:attributes\.)?[A-Za-z_][A-Za-z0-9_-]{0,127}$/;

interface Piece {
  text: string;
  /** The column a placeholder names (after "attributes."), or null for literal text. */
  field: string | null;
  /** Whether the placeholder sits inside a JSON string of the template. */
  inString: boolean;
}

/** Whether `text` leaves a JSON string open, given whether it started inside one. */
function stringStateAfter(text: string, inString: boolean): boolean {
  let inside = inString;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inside && ch === '\\') i++;
    else if (ch === '"') inside = !inside;
  }
  return inside;
}

function parse(template: string): { pieces: Piece[]; bad: string[] } {
  const pieces: Piece[] = [];
  const bad: string[] = [];
  let inString = false;
  let last = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    const literal = template.slice(last, m.index);
    pieces.push({ text: literal, field: null, inString });
    inString = stringStateAfter(literal, inString);
    const name = m[1] ?? '';
    if (!FIELD_NAME.test(name)) bad.push(name);
    pieces.push({ text: m[0], field: name.replace(/^attributes\./, ''), inString });
    last = (m.index ?? 0) + m[0].length;
  }
  pieces.push({ text: template.slice(last), field: null, inString });
  return { pieces, bad };
}

/** The columns a template names, in order of first use. */
export function templateFields(template: string): string[] {
  return [...new Set(parse(template).pieces.flatMap((p) => (p.field === null ? [] : [p.field])))];
}

function fill(value: unknown, inString: boolean): string {
  if (!inString) return JSON.stringify(value ?? null) ?? 'null';
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(text).slice(1, -1);
}

/** The body for one profile: placeholders replaced by its values (by column name). */
export function renderTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  return parse(template)
    .pieces.map((p) => (p.field === null ? p.text : fill(values[p.field], p.inString)))
    .join('');
}

/**
 * What is wrong with a template, each a sentence naming the field or the fault: too long, too many
 * placeholders, a placeholder that is not a field name, a field the profile does not have, or text that
 * is not JSON once filled.
 */
export function templateProblems(template: string, known: ReadonlySet<string>): string[] {
  if (template.length > MAX_TEMPLATE_CHARS) {
    return [`The body template has ${template.length} characters; keep it to ${MAX_TEMPLATE_CHARS}.`];
  }
  const { pieces, bad } = parse(template);
  const used = pieces.filter((p) => p.field !== null);
  if (used.length > MAX_PLACEHOLDERS) {
    return [`The body template has ${used.length} placeholders; use at most ${MAX_PLACEHOLDERS}.`];
  }
  const out: string[] = bad.map(
    (b) =>
      `The body template placeholder "{{${b}}}" is not a field name; write {{column}} or {{attributes.column}} with a column of the parent segment.`,
  );
  const unknown = [...new Set(used.map((p) => p.field as string))].filter((f) => FIELD_NAME.test(f) && !known.has(f));
  for (const field of unknown) {
    out.push(
      `The body template names the field "${field}", which profiles of this parent segment do not have; use one of ${[...known].join(', ')}.`,
    );
  }
  if (out.length > 0) return out;
  try {
    JSON.parse(renderTemplate(template, Object.fromEntries([...known].map((k) => [k, 'sample']))));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    out.push(`The body template is not JSON once its placeholders are filled (${why}); fix the JSON around them.`);
  }
  return out;
}
