import { CONSOLE_HEADER } from '@svc/contracts';
import { ApiError, errorFromBody, NETWORK_ERROR_MESSAGE } from '../../lib/api';

/**
 * PUT one part with the session cookie. XMLHttpRequest, not fetch: it reports upload progress, which the
 * per-part progress bars show. Same name on a retry: the server replaces the part, so nothing doubles.
 */
export function uploadPart(
  session: string,
  part: string,
  bytes: Uint8Array,
  onProgress: (sent: number) => void,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `/v3/bulk_import/upload_part/${encodeURIComponent(session)}/${encodeURIComponent(part)}`);
    xhr.setRequestHeader(CONSOLE_HEADER, '1');
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(bytes.length);
        resolve();
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      reject(errorFromBody(xhr.status, body, xhr.statusText));
    };
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE, 'Network error'));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    if (signal.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(new Blob([bytes as Uint8Array<ArrayBuffer>]));
  });
}

/** Runs tasks with at most `limit` at a time; resolves when all have settled. */
export async function withConcurrency<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  });
  await Promise.all(lanes);
}

/** Waits before the automatic retries of a failed part (like tus' `retryDelays`); then the user retries. */
export const RETRY_DELAYS_MS = [1000, 3000] as const;

/**
 * Whether a failed upload is worth trying again by itself: the network, a server error, or "too many
 * requests". A refusal about the part (400, 413, 409…) would only fail again.
 */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return err.status === 0 || err.status === 408 || err.status === 429 || err.status >= 500;
}

/** Resolves after `ms`, or rejects at once when the signal aborts. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancelled = () => {
      clearTimeout(timer);
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', cancelled);
      resolve();
    }, ms);
    if (signal.aborted) cancelled();
    else signal.addEventListener('abort', cancelled, { once: true });
  });
}

/**
 * Runs `attempt` until it succeeds, retrying retryable failures after each of `delays`; `onRetry` hears
 * of each wait (1-based number of the next attempt, and the failure). The last failure is thrown.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  signal: AbortSignal,
  onRetry: (next: number, err: unknown) => void = () => {},
  delays: readonly number[] = RETRY_DELAYS_MS,
): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      const wait = delays[i];
      if (signal.aborted || wait === undefined || !isRetryable(err)) throw err;
      onRetry(i + 2, err);
      await delay(wait, signal);
    }
  }
}
