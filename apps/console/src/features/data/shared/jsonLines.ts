import { ApiError, errorFromBody, NETWORK_ERROR_MESSAGE } from '../../../lib/api';

/**
 * Reads a JSON Lines answer (table tail, job result) with the session cookie, line by line as it
 * arrives, and stops after `maxLines`: a result of millions of rows must not be held whole in the page.
 * The JSON client of lib/api cannot do this, so failures are turned into the same ApiError here.
 */
export async function fetchJsonLines(
  path: string,
  maxLines: number,
  signal?: AbortSignal,
): Promise<{ lines: unknown[]; truncated: boolean }> {
  let res: Response;
  try {
    res = await fetch(path, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      signal: signal ?? null,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE, 'Network error');
  }
  return readJsonLines(res, maxLines);
}

/** Reads an answer's JSON Lines as they arrive; an error answer becomes an ApiError with the server's message. */
export async function readJsonLines(
  res: Response,
  maxLines: number,
): Promise<{ lines: unknown[]; truncated: boolean }> {
  if (!res.ok) {
    const body: unknown = await res.json().catch(() => undefined);
    throw errorFromBody(res.status, body, res.statusText);
  }
  if (!res.body) return parseJsonLines(await res.text(), maxLines);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const lines: unknown[] = [];
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += value;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const part of parts) {
        if (part.trim() === '') continue;
        if (lines.length === maxLines) return { lines, truncated: true };
        lines.push(JSON.parse(part));
      }
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
  if (pending.trim() !== '') {
    if (lines.length === maxLines) return { lines, truncated: true };
    lines.push(JSON.parse(pending));
  }
  return { lines, truncated: false };
}

/** The same on a whole text: blank lines are skipped, at most `maxLines` are parsed. */
export function parseJsonLines(text: string, maxLines: number): { lines: unknown[]; truncated: boolean } {
  const lines: unknown[] = [];
  for (const part of text.split('\n')) {
    if (part.trim() === '') continue;
    if (lines.length === maxLines) return { lines, truncated: true };
    lines.push(JSON.parse(part));
  }
  return { lines, truncated: false };
}
