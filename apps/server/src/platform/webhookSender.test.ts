import { afterEach, describe, expect, it } from 'vitest';
import { changingDns } from '../testing/changingDns';
import { type Answer, listenForWebhooks, type WebhookListener } from '../testing/webhookListener';
import { STRICT_OUTBOUND } from './addressPolicy';
import { sendToWebhook } from './webhookSender';

/** The one webhook sender, against a real local HTTP server. */

const ALLOW_PRIVATE = { allowPrivateAddresses: true, allowWarehouseLoopback: false };
const POST = { method: 'POST', headers: { authorization: 'Bearer hidden-token' } };

let listener: WebhookListener | null = null;
afterEach(async () => {
  await listener?.close();
  listener = null;
});

/** A webhook answering each request with `answer` (null: never answers); its URL and the requests it saw. */
async function listen(answer: (n: number) => Answer | null) {
  listener = await listenForWebhooks(answer);
  const seen = listener.heard;
  return { url: `${listener.origin}/in?key=k`, seen };
}

const bodies = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `batch ${i + 1}`, body: `{"n":${i}}` }));

describe('sendToWebhook', () => {
  it('posts each body in order with the headers, and reports the last answer', async () => {
    const { url, seen } = await listen(() => ({ status: 202 }));
    const outcome = await sendToWebhook(url, ALLOW_PRIVATE, bodies(3), POST);
    expect(outcome).toEqual({ target: new URL(url).origin, error: null, responseCode: 202 });
    expect(seen.map((r) => [r.body, r.headers.authorization])).toEqual(
      [0, 1, 2].map((n) => [`{"n":${n}}`, 'Bearer hidden-token']),
    );
  });

  it('stops at the first failing answer, and follows no redirect', async () => {
    const { url, seen } = await listen((n) =>
      n === 2 ? { status: 302, location: 'http://169.254.169.254/' } : { status: 200 },
    );
    const outcome = await sendToWebhook(url, ALLOW_PRIVATE, bodies(4), POST);
    expect(outcome).toMatchObject({ error: 'The webhook answered HTTP 302 to batch 2.', responseCode: 302 });
    expect(seen).toHaveLength(2);
  });

  it('gives up on a webhook that does not answer in time, naming the request and nothing sent', async () => {
    const { url } = await listen(() => null);
    const outcome = await sendToWebhook(url, ALLOW_PRIVATE, bodies(2), { ...POST, timeoutMs: 200 });
    expect(outcome.error).toBe('The webhook did not answer in time (batch 1).');
    expect(JSON.stringify(outcome)).not.toMatch(/hidden-token|key=k|remote detail/);
  });

  it('stops when its signal is aborted', async () => {
    const { url } = await listen(() => null);
    const stop = new AbortController();
    const sending = sendToWebhook(url, ALLOW_PRIVATE, bodies(1), { ...POST, signal: stop.signal });
    stop.abort();
    expect((await sending).error).toBe('The webhook call was stopped before an answer (batch 1).');
  });

  it('checks the address policy before any request', async () => {
    const { url, seen } = await listen(() => ({ status: 200 }));
    expect((await sendToWebhook(url, STRICT_OUTBOUND, bodies(1), POST)).error).toBe('Webhooks must use HTTPS.');
    const loopback = url.replace('http:', 'https:');
    expect((await sendToWebhook(loopback, STRICT_OUTBOUND, bodies(1), POST)).error).toMatch(
      /"127\.0\.0\.1" is a loopback or private address/,
    );
    expect(seen).toHaveLength(0);
  });
});

describe('a name whose address changes between the check and the connection (DNS rebinding)', () => {
  it('refuses the connection when the name points at loopback by the time it connects', async () => {
    const { url, seen } = await listen(() => ({ status: 200 }));
    const dns = changingDns('93.184.216.34', '127.0.0.1');
    const rebinding = url.replace('http://127.0.0.1', 'https://hooks.rebind.test');
    const outcome = await sendToWebhook(rebinding, { ...STRICT_OUTBOUND, resolve: dns.resolve }, bodies(1), POST);
    expect(outcome.error).toMatch(/^The webhook host "hooks\.rebind\.test" is a loopback or private address/);
    expect(dns.asked).toEqual(['hooks.rebind.test', 'hooks.rebind.test']);
    expect(seen).toHaveLength(0);
  });

  it('connects to the address the policy approved, not to a second lookup of its own', async () => {
    const { url, seen } = await listen(() => ({ status: 204 }));
    const dns = changingDns('127.0.0.1', '127.0.0.1');
    const named = url.replace('127.0.0.1', 'hooks.internal.test');
    const outcome = await sendToWebhook(named, { ...ALLOW_PRIVATE, resolve: dns.resolve }, bodies(2), POST);
    expect(outcome).toMatchObject({ error: null, responseCode: 204 });
    expect(seen).toHaveLength(2);
    expect(dns.asked.length).toBeGreaterThanOrEqual(2);
  });
});
