import { type ProfileEvent, type ProfileRequest, profileFile } from './profileFile';

/** The whole-file scan's worker: one file per worker, so a scan can be stopped by ending it. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ProfileRequest>) => void) | null;
  postMessage(message: ProfileEvent): void;
};

scope.onmessage = (event: MessageEvent<ProfileRequest>) => {
  const post = (message: ProfileEvent) => scope.postMessage(message);
  profileFile(event.data, post).catch((err: unknown) => {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  });
};
