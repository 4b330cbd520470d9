import type { Response } from 'undici';
import { type OutboundSwitches, urlProblem } from './addressPolicy';
import { type PinnedFetch, refusalOf, withPinnedFetch } from './pinnedFetch';

/**
 * The one HTTP sender for webhooks: journey activations (journey-engine/webhook.ts) and query results
 * (jobs/resultOutput.ts) both post through it. The one address policy is checked first (`https://` only,
 * `http://` and loopback or private hosts only with SVC_DELIVERY_ALLOW_PRIVATE_ADDRESSES=1), and every
 * connection is made to an address the policy approves when it connects (`pinnedFetch.ts`); each request
 * has a timeout, no redirect is followed, and the first failing request ends the send. Neither the URL's
 * path or query, nor header values, nor the remote answer is put in an error: messages name the origin.
 */

const TIMEOUT_MS = 10_000;
const EXCERPT_CHARS = 500;

export interface WebhookBody {
  /** What to call the request in a message: "batch 2", "profile 7". */
  label: string;
  body: string;
}

export interface WebhookRequest {
  method: string;
  headers: Record<string, string>;
  /** Requests in flight at once (1: in order). */
  parallel?: number;
  /** Keep the start of the last answer (test sends). */
  keepExcerpt?: boolean;
  /** Stops the send between and during requests (a killed job). */
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface WebhookOutcome {
  /** The URL's origin, for messages. */
  target: string;
  /** Set when the send failed: a sentence naming the request, never the remote body. */
  error: string | null;
  /** The HTTP status code of the last answer (of the failing request when one failed). */
  responseCode?: number;
  responseExcerpt?: string;
}

/**
 * Why a webhook URL may not be called (not http(s), https required, a loopback, private or reserved
 * address), or null when it may. `save` lets a name that does not resolve yet pass; `send` refuses it.
 */
export function webhookProblem(
  url: string,
  switches: OutboundSwitches | undefined,
  phase: 'save' | 'send' = 'send',
): Promise<string | null> {
  return urlProblem(url, 'webhook', switches, phase);
}

/** The origin of a URL, which carries no credentials or path secrets; the scheme alone when it does not parse. */
export function webhookOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return `${url.split(':')[0] ?? ''}:`;
  }
}

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
  /** The address policy refused the connection: `failure` is its sentence. */
  refused?: boolean;
}

async function request(send: PinnedFetch, url: string, r: WebhookRequest, body: string): Promise<Answer> {
  const timeout = AbortSignal.timeout(r.timeoutMs ?? TIMEOUT_MS);
  try {
    const res = await send(url, {
      method: r.method,
      headers: { 'content-type': 'application/json', ...r.headers },
      body,
      redirect: 'manual',
      signal: r.signal ? AbortSignal.any([timeout, r.signal]) : timeout,
    });
    if (r.keepExcerpt) return { status: res.status, excerpt: await excerptOf(res) };
    await res.body?.cancel();
    return { status: res.status };
  } catch (err) {
    const refused = refusalOf(err);
    if (refused) return { failure: refused, refused: true };
    // Only the kind of failure: an error's text could quote what was sent.
    if (r.signal?.aborted) return { failure: 'call was stopped before an answer' };
    return { failure: timeout.aborted ? 'did not answer in time' : 'could not be reached' };
  }
}

/** Posts the bodies to the URL after checking it against the address policy; the first failure ends the send. */
export async function sendToWebhook(
  url: string,
  switches: OutboundSwitches | undefined,
  bodies: WebhookBody[],
  r: WebhookRequest,
): Promise<WebhookOutcome> {
  const target = webhookOrigin(url);
  const problem = await webhookProblem(url, switches);
  if (problem) return { target, error: problem };
  let last: WebhookOutcome = { target, error: null };
  let next = 0;
  let failed: WebhookOutcome | null = null;
  const worker = async (send: PinnedFetch) => {
    while (failed === null && next < bodies.length) {
      const { label, body } = bodies[next++] as WebhookBody;
      const answer = await request(send, url, r, body);
      if (answer.failure !== undefined) {
        failed ??= { target, error: answer.refused ? answer.failure : `The webhook ${answer.failure} (${label}).` };
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
  await withPinnedFetch('webhook', switches, (send) =>
    Promise.all(Array.from({ length: Math.min(r.parallel ?? 1, bodies.length) }, () => worker(send))),
  );
  return failed ?? last;
}
