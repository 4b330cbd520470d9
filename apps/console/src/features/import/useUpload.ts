import { useCallback, useEffect, useRef, useState } from 'react';
import { bulkImport } from './api';
import { RETRY_DELAYS_MS, uploadPart, withConcurrency, withRetries } from './upload';
import type { PreparedPart } from './worker/prepare';

export type PartStatus = 'waiting' | 'uploading' | 'done' | 'failed';

export interface PartProgress {
  index: number;
  name: string;
  rows: number;
  size: number;
  sent: number;
  status: PartStatus;
  error?: string;
  /** While retrying by itself: the attempt under way (2, 3…) of `attempts`. */
  attempt?: number;
}

/** Attempts of a part before the user is asked: the first and the automatic retries. */
export const ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export type UploadPhase = 'idle' | 'uploading' | 'failed' | 'uploaded' | 'cancelling' | 'cancelled';

/** Parts sent at once: enough to keep the line busy, few enough to leave the server room. */
const CONCURRENCY = 2;

const sessionNameFor = (table: string) => `console_${table}_${Date.now().toString(36)}`;

/**
 * Uploads prepared parts into a new bulk import session: per-part progress, automatic retries with
 * backoff, then retry of a failed part by hand (same name, so it replaces), and cancel, which aborts the
 * transfers and deletes the session. Nothing touches the table's schema here: the commit adds columns.
 */
export function useUpload(database: string, table: string) {
  const [phase, setPhase] = useState<UploadPhase>('idle');
  const [parts, setParts] = useState<PartProgress[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [session, setSession] = useState<string | null>(null);
  const bytes = useRef(new Map<number, Uint8Array>());
  const abort = useRef<AbortController | null>(null);
  const sessionRef = useRef<string | null>(null);

  // Leaving the page before the parts are handed on: stop the transfers and delete the session.
  const handedOn = useRef(false);
  useEffect(() => {
    if (phase === 'uploaded') handedOn.current = true;
  }, [phase]);
  useEffect(
    () => () => {
      const name = sessionRef.current;
      if (!name || handedOn.current) return;
      abort.current?.abort();
      void bulkImport.remove(name).catch(() => {});
    },
    [],
  );

  const patch = (index: number, change: Partial<PartProgress>) =>
    setParts((all) => all.map((p) => (p.index === index ? { ...p, ...change } : p)));

  /** Keeps a part the worker finished, until it is uploaded. */
  const addPart = useCallback((part: PreparedPart) => {
    bytes.current.set(part.index, part.bytes);
    setParts((all) =>
      [
        ...all,
        {
          index: part.index,
          name: part.name,
          rows: part.rows,
          size: part.bytes.length,
          sent: 0,
          status: 'waiting' as const,
        },
      ].sort((a, b) => a.index - b.index),
    );
  }, []);

  const sendOne = async (part: PartProgress, signal: AbortSignal, name: string): Promise<boolean> => {
    const data = bytes.current.get(part.index);
    if (!data) return false;
    patch(part.index, { status: 'uploading', sent: 0, error: undefined, attempt: undefined });
    try {
      await withRetries(
        () => uploadPart(name, part.name, data, (sent) => patch(part.index, { sent }), signal),
        signal,
        (attempt, err) =>
          patch(part.index, { sent: 0, attempt, error: err instanceof Error ? err.message : String(err) }),
      );
      patch(part.index, { status: 'done', sent: data.length, error: undefined, attempt: undefined });
      bytes.current.delete(part.index);
      return true;
    } catch (err) {
      if (signal.aborted) return false;
      patch(part.index, {
        status: 'failed',
        attempt: undefined,
        error: err instanceof Error ? err.message : String(err),
      });
      return false;
    }
  };

  const sendAll = async (queue: PartProgress[], name: string) => {
    const controller = abort.current ?? new AbortController();
    abort.current = controller;
    setPhase('uploading');
    let failed = 0;
    await withConcurrency(queue, CONCURRENCY, async (p) => {
      if (!(await sendOne(p, controller.signal, name))) failed += 1;
    });
    if (controller.signal.aborted) return;
    setPhase(failed > 0 || bytes.current.size > 0 ? 'failed' : 'uploaded');
  };

  /** Opens the session and sends every part. */
  const start = async () => {
    setError(null);
    abort.current = new AbortController();
    setPhase('uploading');
    try {
      const name = sessionNameFor(table);
      await bulkImport.create(name, database, table);
      sessionRef.current = name;
      setSession(name);
      await sendAll(parts, name);
    } catch (err) {
      if (abort.current?.signal.aborted) return;
      setError(err instanceof Error ? err.message : String(err));
      setPhase('failed');
    }
  };

  const retryFailed = () => {
    const name = sessionRef.current;
    if (!name) return;
    void sendAll(
      parts.filter((p) => p.status === 'failed' || p.status === 'waiting'),
      name,
    );
  };

  const retryPart = (index: number) => {
    const name = sessionRef.current;
    const part = parts.find((p) => p.index === index);
    if (name && part) void sendAll([part], name);
  };

  const cancel = async () => {
    setPhase('cancelling');
    abort.current?.abort();
    const name = sessionRef.current;
    try {
      if (name) await bulkImport.remove(name);
      sessionRef.current = null;
      setSession(null);
      setPhase('cancelled');
    } catch (err) {
      setError(`The upload stopped, but the session ${name} could not be deleted: ${(err as Error).message}`);
      setPhase('failed');
    }
  };

  return { phase, parts, error, session, addPart, start, retryFailed, retryPart, cancel };
}
