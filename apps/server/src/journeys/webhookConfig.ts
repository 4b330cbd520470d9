import { type JourneyViolation, WEBHOOK_METHODS } from '@svc/contracts';
import { decryptSecret, encryptSecret } from '../platform/secretCipher';
import { templateProblems } from './bodyTemplate';
import { violation } from './validation';

/**
 * The webhook part of an activation's `connectorConfig`: `method` (POST, PUT or PATCH), `headers`
 * (`[{name, value}]`) and `bodyTemplate` (bodyTemplate.ts). Header values are secrets: stored sealed
 * (platform/secretCipher.ts), answered masked, opened only to send. A header given without a value keeps the
 * value stored under its name, so a client can send back what it read.
 */

export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];
const MAX_HEADERS = 20;
const MAX_HEADER_NAME = 100;
const MAX_HEADER_VALUE = 4096;
const PURPOSE = 'journey webhook headers';
const SEALED = 'sealed:';
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Control characters (a tab aside) would let a value end its header line and start another. */
const hasControl = (v: string) => [...v].some((ch) => (ch.charCodeAt(0) < 32 && ch !== '\t') || ch === '\u007f');
/** Headers the HTTP client sets itself, or that would change how the request is framed or routed. */
const RESERVED = /^(host|content-length|transfer-encoding|connection|keep-alive|upgrade|te|trailer|expect|proxy-.*)$/i;

export interface StoredHeader {
  name: string;
  /** `sealed:v1:…` */
  value: string;
}

/** Webhook settings ready to send: the method, opened header values, and the template or null. */
export interface WebhookSettings {
  method: WebhookMethod;
  headers: Record<string, string>;
  bodyTemplate: string | null;
}

export interface WebhookCheckContext {
  serverSecret: string;
  /** Field names a body template may use. */
  fields: ReadonlySet<string>;
}

const PATH = 'attributes.syndication_params.connectorConfig';
const problem = (code: string, field: string, message: string): JourneyViolation =>
  violation(code, message, { field: `connectorConfig.${field}`, text: `${PATH}.${field}` });

function storedHeaders(config: Record<string, unknown> | null | undefined): StoredHeader[] {
  const list = config?.headers;
  return Array.isArray(list) ? (list as StoredHeader[]) : [];
}

function checkHeaders(
  given: unknown,
  base: StoredHeader[],
  ctx: WebhookCheckContext,
  found: JourneyViolation[],
): StoredHeader[] {
  if (!Array.isArray(given)) {
    found.push(problem('shape.invalid', 'headers', `${PATH}.headers must be a list of {name, value}.`));
    return [];
  }
  if (given.length > MAX_HEADERS) {
    found.push(
      problem('activation.headers', 'headers', `Send at most ${MAX_HEADERS} headers; there are ${given.length}.`),
    );
    return [];
  }
  const out: StoredHeader[] = [];
  const seen = new Set<string>();
  given.forEach((h, i) => {
    const name = typeof h?.name === 'string' ? h.name.trim() : '';
    const at = `headers[${i}]`;
    if (!TOKEN.test(name) || name.length > MAX_HEADER_NAME) {
      found.push(
        problem(
          'activation.header_name',
          at,
          `Header ${i + 1} needs a name of letters, digits and -, at most ${MAX_HEADER_NAME} characters.`,
        ),
      );
      return;
    }
    if (RESERVED.test(name)) {
      found.push(problem('activation.header_name', at, `The header "${name}" is set by the server; remove it.`));
      return;
    }
    if (seen.has(name.toLowerCase())) {
      found.push(problem('activation.header_name', at, `The header "${name}" is given twice; keep one.`));
      return;
    }
    seen.add(name.toLowerCase());
    const value: unknown = h?.value;
    if (value === undefined || value === null) {
      const kept = base.find((b) => b.name.toLowerCase() === name.toLowerCase());
      if (kept) out.push({ name, value: kept.value });
      else found.push(problem('activation.header_value', at, `The header "${name}" has no value; give one.`));
      return;
    }
    if (typeof value === 'string' && value.startsWith(SEALED) && opens(value, ctx.serverSecret)) {
      // A stored value given back as it is (a duplicated activation): kept sealed, not sealed twice.
      out.push({ name, value });
      return;
    }
    if (typeof value !== 'string' || value.length > MAX_HEADER_VALUE || hasControl(value)) {
      found.push(
        problem(
          'activation.header_value',
          at,
          `The value of header "${name}" must be text of at most ${MAX_HEADER_VALUE} characters on one line.`,
        ),
      );
      return;
    }
    out.push({ name, value: SEALED + encryptSecret(ctx.serverSecret, value, PURPOSE) });
  });
  return out;
}

/**
 * Checks the webhook keys of `connectorConfig` (others pass as they are) and returns the stored form, with
 * header values sealed. `base` is the stored connectorConfig on PATCH, whose header values fill headers
 * given without one. Problems are added to `found`.
 */
export function checkWebhookConfig(
  config: Record<string, unknown>,
  base: Record<string, unknown> | null,
  ctx: WebhookCheckContext,
  found: JourneyViolation[],
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  if (config.method !== undefined) {
    const method = typeof config.method === 'string' ? config.method.toUpperCase() : '';
    if (!(WEBHOOK_METHODS as readonly string[]).includes(method)) {
      found.push(problem('activation.method', 'method', `The method must be one of ${WEBHOOK_METHODS.join(', ')}.`));
    }
    out.method = method;
  }
  if (config.headers !== undefined) out.headers = checkHeaders(config.headers, storedHeaders(base), ctx, found);
  if (config.bodyTemplate !== undefined && config.bodyTemplate !== null) {
    if (typeof config.bodyTemplate !== 'string') {
      found.push(problem('shape.invalid', 'bodyTemplate', `${PATH}.bodyTemplate must be text.`));
    } else if (config.bodyTemplate.trim() === '') {
      delete out.bodyTemplate;
    } else {
      for (const message of templateProblems(config.bodyTemplate, ctx.fields)) {
        found.push(problem('activation.body_template', 'bodyTemplate', message));
      }
    }
  }
  return out;
}

/** The mask a client sees for a header value: never more than its last four characters, and only for long ones. */
function maskValue(plain: string): string {
  return plain.length >= 16 ? `••••••••${plain.slice(-4)}` : '••••••••';
}

/** `connectorConfig` as answered: header values masked (`value: null`, `masked`, `set: true`). */
export function maskedConnectorConfig(config: Record<string, unknown>, serverSecret: string): Record<string, unknown> {
  if (!Array.isArray(config.headers)) return config;
  const headers = storedHeaders(config).map((h) => {
    let masked = '••••••••';
    try {
      masked = maskValue(openValue(h.value, serverSecret));
    } catch {
      // A value that no longer opens is answered as set; sending says it must be set again.
    }
    return { name: h.name, value: null, masked, set: true };
  });
  return { ...config, headers };
}

function opens(stored: string, serverSecret: string): boolean {
  try {
    openValue(stored, serverSecret);
    return true;
  } catch {
    return false;
  }
}

function openValue(stored: string, serverSecret: string): string {
  if (!stored.startsWith(SEALED)) throw new Error('A header value is not sealed; set it again.');
  return decryptSecret(serverSecret, stored.slice(SEALED.length), PURPOSE);
}

/** The settings to send with, header values opened. Throws (with a sentence) when a value no longer opens. */
export function webhookSettingsOf(config: Record<string, unknown> | undefined, serverSecret: string): WebhookSettings {
  const method = typeof config?.method === 'string' ? (config.method as WebhookMethod) : 'POST';
  const headers: Record<string, string> = {};
  for (const h of storedHeaders(config)) headers[h.name] = openValue(h.value, serverSecret);
  const template = typeof config?.bodyTemplate === 'string' && config.bodyTemplate ? config.bodyTemplate : null;
  return { method, headers, bodyTemplate: template };
}
