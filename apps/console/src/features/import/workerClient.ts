import type { PrepareEvent, PrepareRequest } from './worker/prepare';
import type { ProfileEvent, ProfileRequest } from './worker/profileFile';

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

/** Starts the whole-file scan of one file in its own worker; `stop` ends it (file removed or re-read). */
export function startProfile(request: ProfileRequest, onEvent: (event: ProfileEvent) => void): { stop: () => void } {
  const worker = new Worker(new URL('./worker/profileWorker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (event: MessageEvent<ProfileEvent>) => onEvent(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    onEvent({ type: 'error', message: event.message || 'The scan of the file stopped unexpectedly.' });
  };
  worker.postMessage(request);
  return { stop: () => worker.terminate() };
}
