import { renderTemplate, type WebhookSettings } from '../journeys';
import type { OutboundSwitches } from '../platform/addressPolicy';
import { sendToWebhook, type WebhookOutcome, webhookOrigin } from '../platform/webhookSender';

/**
 * Webhook deliveries. Without a body template, profiles go as JSON batches `{journeyId, activationId,
 * deliveredAt, profiles: [...]}` of up to WEBHOOK_BATCH; with one, each profile is one request whose body
 * is the template filled from it. Either way with the activation's method and headers, sent by the
 * platform's one webhook sender (platform/webhookSender.ts: address policy, timeout, no redirects). The
 * first failing request ends the delivery, which is tried again later as a whole (so a webhook may see a
 * profile twice: deliveries are at least once). Header values are never put in an error or a log line.
 */

const WEBHOOK_BATCH = 500;
/** Requests in flight at once when each profile is its own request. */
const PARALLEL = 4;
/** A filled template larger than this is not sent. */
const MAX_BODY_BYTES = 256 * 1024;

export interface WebhookEnv {
  deps: { config: { outbound?: OutboundSwitches } };
  journeyId: string;
  activationId: string;
  at: number;
  keepExcerpt?: boolean;
}

const PLAIN: WebhookSettings = { method: 'POST', headers: {}, bodyTemplate: null };

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
  const bodies = bodiesOf(env, rows, settings.bodyTemplate);
  const tooLarge = bodies.find((b) => Buffer.byteLength(b.body) > MAX_BODY_BYTES);
  if (tooLarge) {
    return {
      target: webhookOrigin(url),
      error: `The body for ${tooLarge.label} is larger than ${MAX_BODY_BYTES / 1024} KiB once filled; send fewer fields.`,
    };
  }
  return sendToWebhook(url, env.deps.config.outbound, bodies, {
    method: settings.method,
    headers: settings.headers,
    parallel: settings.bodyTemplate === null ? 1 : PARALLEL,
    keepExcerpt: env.keepExcerpt === true,
  });
}
