import { type OutboundSwitches, urlProblem } from '../platform/addressPolicy';

/**
 * Why a webhook URL may not be called (not http(s), https required, a loopback, private or reserved
 * address), or null when it may: the platform's one outbound address policy, for webhooks. `save` lets a
 * name that does not resolve yet pass; `send` (the default) refuses it.
 */
export function outboundProblem(
  url: string,
  switches: OutboundSwitches | undefined,
  phase: 'save' | 'send' = 'send',
): Promise<string | null> {
  return urlProblem(url, 'webhook', switches, phase);
}
