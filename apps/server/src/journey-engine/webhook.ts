import { renderTemplate, type WebhookSettings } from '../journeys';
import type { OutboundSwitches } from '../platform/addressPolicy';
import { outboundProblem } from './outbound';

/**
 * Webhook deliveries. Without a body template, profiles go as JSON batches `{journeyId, activationId,
 * deliveredAt, profiles: [...]}` of up to WEBHOOK_BATCH; with one, each profile is one request whose body
 * is the template filled from it. Either way with the activation's method and headers, no redirects
 * followed, and the one address policy checked first. The first failing request ends the delivery, which
 * is tried again later as a whole (so a webhook may see a profile twice: deliveries are at least once).
 * Header values are never put in an error or a log line.
 */

const WEBHOOK_BATCH = 500;
const WEBHOOK_TIMEOUT_MS = 10_000;
/** Requests in flight at once when each profile is its own request. */
const PARALLEL = 4;
/** A filled template larger than this is not sent. */
const MAX_BODY_BYTES = 256 * 1024;
const EXCERPT_CHARS = 500;

export interface WebhookEnv {
  deps: { config: { outbound?: OutboundSwitches } };
  journeyId: string;
  activationId: string;
  at: number;
  keepExcerpt?: boolean;
}

export interface WebhookOutcome {
  target: string;
  error: string | null;
  responseCode?: number;
  responseExcerpt?: string;
}

const PLAIN: WebhookSettings = { method: 'POST', headers: {}, bodyTemplate: null };

async function excerptOf(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  while (text.length < EXCERPT_CHARS) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text.slice(0, EXCERPT_CHARS);
}

interface Answer {
  status?: number;
  excerpt?: string;
  /** Set when no answer came. */
  failure?: string;
}

async function request(url: string, settings: WebhookSettings, body: string, keepExcerpt: boolean): Promise<Answer> {
  try {
    const res = await fetch(url, {
      method: settings.method,
      headers: { 'content-type': 'application/json', ...settings.headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    if (keepExcerpt) return { status: res.status, excerpt: await excerptOf(res) };
    await res.body?.cancel();
    return { status: res.status };
  } catch (err) {
    // Only the kind of failure: an error's text could quote what was sent.
    return {
      failure: err instanceof Error && err.name === 'TimeoutError' ? 'did not answer in time' : 'could not be reached',
    };
  }
}

/** The request bodies, with what to call each in a message. */
function bodiesOf(env: WebhookEnv, rows: Record<string, unknown>[], template: string | null) {
  if (template !== null) {
    // `test` is true only in test sends, whose row says so.
    return rows.map((row, i) => ({
      label: `profile ${i + 1}`,
      body: renderTemplate(template, { test: false, ...row }),
    }));
  }
  const out: { label: string; body: string }[] = [];
  for (let i = 0; i < rows.length; i += WEBHOOK_BATCH) {
    const profiles = rows.slice(i, i + WEBHOOK_BATCH);
    const body = JSON.stringify({
      journeyId: env.journeyId,
      activationId: env.activationId,
      deliveredAt: new Date(env.at).toISOString(),
      profiles,
    });
    out.push({ label: `batch ${i / WEBHOOK_BATCH + 1}`, body });
  }
  return out;
}

export async function toWebhook(
  env: WebhookEnv,
  url: string,
  rows: Record<string, unknown>[],
  settings: WebhookSettings = PLAIN,
): Promise<WebhookOutcome> {
  const target = new URL(url).origin;
  const problem = await outboundProblem(url, env.deps.config.outbound);
  if (problem) return { target, error: problem };
  const bodies = bodiesOf(env, rows, settings.bodyTemplate);
  const tooLarge = bodies.find((b) => Buffer.byteLength(b.body) > MAX_BODY_BYTES);
  if (tooLarge) {
    return {
      target,
      error: `The body for ${tooLarge.label} is larger than ${MAX_BODY_BYTES / 1024} KiB once filled; send fewer fields.`,
    };
  }
  let last: WebhookOutcome = { target, error: null };
  let next = 0;
  let failed: WebhookOutcome | null = null;
  const worker = async () => {
    while (failed === null && next < bodies.length) {
      const { label, body } = bodies[next++] as { label: string; body: string };
      const answer = await request(url, settings, body, env.keepExcerpt === true);
      if (answer.failure !== undefined) {
        failed ??= { target, error: `The webhook ${answer.failure} (${label}).` };
        return;
      }
      const code = answer.status as number;
      const seen: WebhookOutcome = { target, error: null, responseCode: code };
      if (answer.excerpt !== undefined) seen.responseExcerpt = answer.excerpt;
      if (code < 200 || code > 299) {
        failed ??= { ...seen, error: `The webhook answered HTTP ${code} to ${label}.` };
        return;
      }
      last = seen;
    }
  };
  const parallel = settings.bodyTemplate === null ? 1 : PARALLEL;
  await Promise.all(Array.from({ length: Math.min(parallel, bodies.length) }, worker));
  return failed ?? last;
}
