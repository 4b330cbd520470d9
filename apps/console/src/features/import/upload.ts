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
