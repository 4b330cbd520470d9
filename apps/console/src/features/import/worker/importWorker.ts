import { type PrepareEvent, type PrepareRequest, prepareParts } from './prepare';

/** The import wizard's worker: parsing, conversion and encoding happen here, off the page's thread. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PrepareRequest>) => void) | null;
  postMessage(message: PrepareEvent, transfer?: Transferable[]): void;
};

scope.onmessage = (event: MessageEvent<PrepareRequest>) => {
  const post = (message: PrepareEvent) => {
    // Parts travel as transferred buffers: no copy of the bytes.
    if (message.type === 'part') scope.postMessage(message, [message.part.bytes.buffer]);
    else scope.postMessage(message);
  };
  prepareParts(event.data, post).catch((err: unknown) => {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  });
};
