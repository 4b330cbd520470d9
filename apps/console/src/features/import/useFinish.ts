import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { jobQueryOptions, tablesQueryOptions } from '../../lib/resources';
import { appendSchema, bulkImport, importKeys, killJob, sessionQueryOptions } from './api';
import { columnsToAdd, parseSchema } from './model/match';
import type { ColumnType } from './model/types';

/** Sessions the user has let go of (committed or deleted): leaving the page leaves them alone. */
const settledStatuses = new Set(['committing', 'committed']);

/**
 * The finish of an import: freeze and perform once (even under StrictMode's double effects), run the
 * perform again after a failure, add the new columns and commit, or discard. Leaving the page before the
 * commit deletes the session, as cancelling the upload does.
 */
export function useFinish(session: string, database: string, table: string, columns: [string, ColumnType][]) {
  const queryClient = useQueryClient();
  const [jobId, setJobId] = useState<number | null>(null);
  const [startedAt, setStartedAt] = useState<number | null>(null);

  const perform = useMutation({
    mutationFn: async () => {
      await bulkImport.freeze(session);
      return bulkImport.perform(session);
    },
    onSuccess: async (r) => {
      setJobId(r.job_id);
      setStartedAt(Date.now());
      // A run after a failure starts from a settled (uploading) session that is no longer polled.
      await queryClient.invalidateQueries({ queryKey: importKeys.session(session) });
    },
  });
  const { mutate: startPerform } = perform;
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    startPerform();
  }, [startPerform]);

  const status = useQuery({ ...sessionQueryOptions(session), enabled: jobId !== null });
  const job = useQuery({ ...jobQueryOptions(String(jobId ?? 0)), enabled: jobId !== null });

  // Columns are added only now, so an import that is cancelled or discarded leaves the table as it was.
  const commit = useMutation({
    mutationFn: async () => {
      if (columns.length > 0) {
        const tables = await queryClient.fetchQuery({ ...tablesQueryOptions(database), staleTime: 0 });
        const added = columnsToAdd(columns, parseSchema(tables.find((t) => t.name === table)?.schema));
        if (added.length > 0) await appendSchema(database, table, added);
      }
      return bulkImport.commit(session);
    },
    onSuccess: () => queryClient.invalidateQueries(),
  });
  const discard = useMutation({ mutationFn: () => bulkImport.remove(session) });

  const sessionStatus = status.data?.status;
  const letGo = discard.isSuccess || commit.isPending || commit.isSuccess || settledStatuses.has(sessionStatus ?? '');
  const latest = useRef({ letGo, sessionStatus, jobId });
  latest.current = { letGo, sessionStatus, jobId };

  // Leaving the wizard (another page, or "start over"): delete what was not committed. The check runs after
  // a tick, so StrictMode's unmount-and-mount of the same step does not count as leaving.
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    const abandon = async () => {
      const { letGo: gone, sessionStatus: at, jobId: id } = latest.current;
      if (gone) return;
      if (at === 'performing' && id !== null) await killJob(id).catch(() => {});
      await bulkImport.remove(session).catch(() => {});
    };
    // Closing the tab or reloading: ask first, and if the page goes anyway, delete on the way out.
    const warn = (event: BeforeUnloadEvent) => {
      if (!latest.current.letGo) event.preventDefault();
    };
    const onHide = () => {
      if (!latest.current.letGo) bulkImport.removeOnExit(session);
    };
    window.addEventListener('beforeunload', warn);
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('beforeunload', warn);
      window.removeEventListener('pagehide', onHide);
      setTimeout(() => {
        if (!mounted.current) void abandon();
      }, 0);
    };
  }, [session]);

  return { jobId, startedAt, perform, status, job, commit, discard };
}
