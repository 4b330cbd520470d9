import { pageStyle } from './style';

/**
 * Renders the generated OpenAPI document as one readable HTML page: operations grouped by tag, each with
 * its method, path, summary, authentication, parameters, request body and responses. The page is plain
 * HTML and CSS, no scripts, so it works under `default-src 'self'`.
 */

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const MAX_DEPTH = 8;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Backticks in descriptions become <code>; everything else is escaped text. */
function prose(text: string | undefined): string {
  if (!text) return '';
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const refName = (ref: string) => ref.split('/').pop() ?? ref;

interface Operation {
  method: string;
  path: string;
  op: Json;
}

function typeLabel(schema: Json): string {
  const type = schema.type;
  const types = Array.isArray(type) ? type.map(String) : typeof type === 'string' ? [type] : [];
  if (schema.nullable === true) types.push('null');
  const format = str(schema.format);
  const label = types.length ? types.join(' | ') : schema.properties ? 'object' : 'any';
  return format ? `${label} (${format})` : label;
}

function constraints(schema: Json): string {
  const parts: string[] = [];
  if (Array.isArray(schema.enum))
    parts.push(`one of ${schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(', ')}`);
  if (schema.const !== undefined) parts.push(`always <code>${escapeHtml(JSON.stringify(schema.const))}</code>`);
  if (schema.default !== undefined) parts.push(`default <code>${escapeHtml(JSON.stringify(schema.default))}</code>`);
  for (const [key, word] of [
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minimum', 'min'],
    ['maximum', 'max'],
    ['pattern', 'pattern'],
  ] as const) {
    if (schema[key] !== undefined) parts.push(`${word} <code>${escapeHtml(String(schema[key]))}</code>`);
  }
  if (schema.example !== undefined) parts.push(`e.g. <code>${escapeHtml(JSON.stringify(schema.example))}</code>`);
  return parts.length ? ` <span class="muted small">${parts.join('; ')}</span>` : '';
}

/** One schema as a nested list; component references link to the Schemas section. */
export function schemaHtml(schema: unknown, depth = 0): string {
  if (!isObj(schema)) return '<code>any</code>';
  const ref = str(schema.$ref);
  if (ref) return `<a href="#schema-${slug(refName(ref))}"><code>${escapeHtml(refName(ref))}</code></a>`;
  if (depth > MAX_DEPTH) return '<code>…</code>';
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) {
      const word = key === 'allOf' ? 'all of' : 'one of';
      return `${word}:<ul>${list.map((s) => `<li>${schemaHtml(s, depth + 1)}</li>`).join('')}</ul>`;
    }
  }
  const head = `<code>${escapeHtml(typeLabel(schema))}</code>${constraints(schema)}`;
  const description = str(schema.description) ? ` — ${prose(str(schema.description))}` : '';
  if (isObj(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    const rows = Object.entries(schema.properties).map(([name, prop]) => {
      const flag = required.has(name) ? ' <span class="req">required</span>' : '';
      return `<li><code class="prop">${escapeHtml(name)}</code>${flag}: ${schemaHtml(prop, depth + 1)}</li>`;
    });
    return `${head}${description}<ul class="props">${rows.join('')}</ul>`;
  }
  if (schema.items !== undefined) return `array of ${schemaHtml(schema.items, depth + 1)}${description}`;
  return `${head}${description}`;
}

/** A parameter's own description, unless its schema (already shown) says the same. */
function paramNote(p: Json): string {
  const text = str(p.description);
  if (!text || (isObj(p.schema) && p.schema.description === text)) return '';
  return ` — ${prose(text)}`;
}

function parametersHtml(op: Json): string {
  const params = Array.isArray(op.parameters) ? op.parameters.filter(isObj) : [];
  if (params.length === 0) return '';
  const rows = params.map((p) => {
    const required = p.required === true ? '<span class="req">required</span>' : 'optional';
    return `<tr><td><code>${escapeHtml(str(p.name) ?? '')}</code></td><td>${escapeHtml(str(p.in) ?? '')}</td><td>${required}</td><td>${schemaHtml(p.schema)}${paramNote(p)}</td></tr>`;
  });
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th></th><th>Schema</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Media types that share one schema are listed together, so a wire body shows its three encodings once. */
function contentHtml(content: unknown): string {
  if (!isObj(content)) return '';
  const groups = new Map<string, { types: string[]; schema: unknown }>();
  for (const [type, media] of Object.entries(content)) {
    const schema = isObj(media) ? media.schema : undefined;
    const key = JSON.stringify(schema ?? null);
    const group = groups.get(key) ?? { types: [], schema };
    group.types.push(type);
    groups.set(key, group);
  }
  return [...groups.values()]
    .map(
      (g) =>
        `<div class="media"><span class="muted">${g.types.map(escapeHtml).join(', ')}</span><div>${schemaHtml(g.schema)}</div></div>`,
    )
    .join('');
}

function securityHtml(op: Json, docSecurity: unknown): string {
  const list = Array.isArray(op.security) ? op.security : Array.isArray(docSecurity) ? docSecurity : [];
  const names = list.filter(isObj).flatMap((s) => Object.keys(s));
  const text = names.length ? names.map((n) => `<code>${escapeHtml(n)}</code>`).join(' or ') : 'none';
  return `<p class="auth">Authentication: ${text}</p>`;
}

function operationHtml({ method, path, op }: Operation, doc: Json): string {
  const id = slug(`${method} ${path}`);
  const body = isObj(op.requestBody) ? op.requestBody : undefined;
  const responses = isObj(op.responses) ? Object.entries(op.responses) : [];
  return `<section class="op" id="${id}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code></h3>
<p class="summary">${prose(str(op.summary))}</p>${op.description ? `<p>${prose(str(op.description))}</p>` : ''}
${securityHtml(op, doc.security)}
${parametersHtml(op)}
${body ? `<h4>Request body${body.required === true ? '' : ' (optional)'}</h4>${body.description ? `<p>${prose(str(body.description))}</p>` : ''}${contentHtml(body.content)}` : ''}
<h4>Responses</h4>
<dl class="responses">${responses
    .map(([status, r]) => {
      const res = isObj(r) ? r : {};
      return `<dt class="status s${escapeHtml(status.slice(0, 1))}">${escapeHtml(status)}</dt><dd>${prose(str(res.description))}${contentHtml(res.content)}</dd>`;
    })
    .join('')}</dl>
</section>`;
}

/** Groups the document's operations by their first tag, in the order tags first appear. */
function groupByTag(doc: Json): Map<string, Operation[]> {
  const groups = new Map<string, Operation[]>();
  const paths = isObj(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObj(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const tag = Array.isArray(op.tags) && typeof op.tags[0] === 'string' ? op.tags[0] : 'Other';
      const list = groups.get(tag) ?? [];
      list.push({ method, path, op });
      groups.set(tag, list);
    }
  }
  return groups;
}

export function renderReference(document: unknown): string {
  const doc = isObj(document) ? document : {};
  const info = isObj(doc.info) ? doc.info : {};
  const title = str(info.title) ?? 'API reference';
  const groups = groupByTag(doc);
  const components = isObj(doc.components) ? doc.components : {};
  const schemas = isObj(components.schemas) ? Object.entries(components.schemas) : [];
  const toc = [...groups.entries()]
    .map(
      ([tag, ops]) =>
        `<li><a href="#tag-${slug(tag)}">${escapeHtml(tag)}</a><ul>${ops
          .map(
            (o) =>
              `<li><a href="#${slug(`${o.method} ${o.path}`)}"><span class="method ${o.method}">${o.method.toUpperCase()}</span> ${escapeHtml(o.path)}</a></li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('');
  const sections = [...groups.entries()]
    .map(
      ([tag, ops]) =>
        `<h2 id="tag-${slug(tag)}">${escapeHtml(tag)}</h2>${ops.map((o) => operationHtml(o, doc)).join('\n')}`,
    )
    .join('\n');
  const schemaSection = schemas.length
    ? `<h2 id="schemas">Schemas</h2>${schemas
        .map(
          ([name, s]) =>
            `<section class="op" id="schema-${slug(name)}"><h3><code>${escapeHtml(name)}</code></h3>${schemaHtml(s)}</section>`,
        )
        .join('')}`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — reference</title><style>${pageStyle}</style></head>
<body><nav><p class="brand">${escapeHtml(title)}</p><p class="muted">Version ${escapeHtml(str(info.version) ?? '')} · <a href="/openapi.json">openapi.json</a></p><ul>${toc}${schemas.length ? '<li><a href="#schemas">Schemas</a></li>' : ''}</ul></nav>
<main><h1>${escapeHtml(title)}</h1>${info.description ? `<p>${prose(str(info.description))}</p>` : ''}
${sections}
${schemaSection}
</main></body></html>`;
}
