import { Agent, fetch, type RequestInit, type Response } from 'undici';
import { type OutboundKind, OutboundRefused, type OutboundSwitches, pinnedLookup } from './addressPolicy';

/**
 * HTTP requests to hosts users name (webhooks, identity provider metadata). Each connection resolves its
 * name through the address policy's `pinnedLookup`, so the address connected to is one the policy approved
 * at that moment, not only when the URL was checked.
 */

export type PinnedFetch = (url: string, init: RequestInit) => Promise<Response>;

/** Runs `use` with a fetch whose connections reach only addresses the policy approves for this kind. */
export async function withPinnedFetch<T>(
  kind: OutboundKind,
  switches: OutboundSwitches | undefined,
  use: (pinnedFetch: PinnedFetch) => Promise<T>,
): Promise<T> {
  const agent = new Agent({ connect: { lookup: pinnedLookup(kind, switches) } });
  try {
    return await use((url, init) => fetch(url, { ...init, dispatcher: agent }));
  } finally {
    await agent.destroy();
  }
}

/** The policy's sentence when a request failed because its connection was refused, else null. */
export function refusalOf(err: unknown): string | null {
  let at: unknown = err;
  for (let depth = 0; at instanceof Error && depth < 5; depth++) {
    if (at instanceof OutboundRefused) return at.message;
    at = at.cause;
  }
  return null;
}
