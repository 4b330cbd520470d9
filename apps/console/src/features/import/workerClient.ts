import type { PrepareEvent, PrepareRequest } from './worker/prepare';

/** Starts the import worker on a request; `stop` ends it at once (cancel, or leaving the page). */
export function startPrepare(request: PrepareRequest, onEvent: (event: PrepareEvent) => void): { stop: () => void } {
  const worker = new Worker(new URL('./worker/importWorker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (event: MessageEvent<PrepareEvent>) => onEvent(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    onEvent({ type: 'error', message: event.message || 'The import worker stopped unexpectedly.' });
  };
  worker.postMessage(request);
  return { stop: () => worker.terminate() };
}
