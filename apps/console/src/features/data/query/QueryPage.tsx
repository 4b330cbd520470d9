import { Alert, Button, Grid, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { meQueryOptions } from '../../auth';
import { ImportDropZone } from '../../import';
import { databasesQueryOptions, tablesQueryOptions } from '../databases/api';
import { isRunning, jobQueryOptions, useIssueQuery, useKillJob } from '../jobs/api';
import { SaveQueryButtons } from '../saved-queries/SaveQueryButtons';
import { useOpenSavedQuery } from '../saved-queries/useOpenSavedQuery';
import { ScheduleButton } from '../schedules/ScheduleButton';
import { tableColumns } from '../shared/format';
import { errorPosition } from './errorPosition';
import { QueryOutcome } from './QueryOutcome';
import { queriedTable } from './queriedTable';
import { databaseToOpen, type Engine, loadQueryPrefs, saveQueryPrefs } from './queryPrefs';
import { RecentQueriesPanel } from './RecentQueriesPanel';
import { RunStatus } from './RunStatus';
import { forgetRecentQueries, loadRecentQueries, type RecentQuery, rememberQuery } from './recentQueries';
import { SchemaBrowser } from './SchemaBrowser';
import { SqlEditor } from './SqlEditor';

const starter = (table: string | null) => (table ? `SELECT *\nFROM ${table}\nORDER BY time DESC\nLIMIT 100` : '');

/**
 * The SQL editor: pick a database and an engine, write a query (the schema browser inserts names), run it as a
 * job, optionally writing its rows to a table as well, watch it, read or download the rows.
 */
export function QueryPage() {
  const [params, setParams] = useSearchParams();
  const database = params.get('database');
  const table = params.get('table');
  const jobId = params.get('job');
  const userId = useQuery(meQueryOptions()).data?.id ?? 0;

  const databases = useQuery(databasesQueryOptions());
  const tables = useQuery({ ...tablesQueryOptions(database ?? ''), enabled: database !== null });
  const job = useQuery({ ...jobQueryOptions(jobId ?? ''), enabled: jobId !== null });
  const issue = useIssueQuery();
  const kill = useKillJob();

  const [text, setText] = useState(() => starter(table));
  const [recent, setRecent] = useState<RecentQuery[]>(() => loadRecentQueries(localStorage, userId));
  const [engine, setEngine] = useState<Engine>(() => loadQueryPrefs(localStorage, userId).engine);
  const [result, setResult] = useState('');
  const issuedAt = useRef(new Map<string, number>());
  const inserter = useRef<((text: string) => void) | null>(null);
  useEffect(() => {
    setRecent(loadRecentQueries(localStorage, userId));
    setEngine(loadQueryPrefs(localStorage, userId).engine);
  }, [userId]);
  const { saved, adopt } = useOpenSavedQuery(params.get('saved'), (q) => {
    setText(q.query);
    setEngine(q.engine);
  });

  // A job opened by its address brings its query back into an empty editor.
  const reopened = useRef(false);
  useEffect(() => {
    if (reopened.current || !job.data?.query) return;
    reopened.current = true;
    if (text.trim() === '') setText(job.data.query);
  }, [job.data, text]);

  // No database named: the one last used (while it exists), else the first, so the editor is usable at once.
  useEffect(() => {
    if (database !== null || !databases.data || userId === 0) return;
    const names = databases.data.map((d) => d.name);
    const open = databaseToOpen(null, loadQueryPrefs(localStorage, userId).database, names);
    if (open) setParams((p) => new URLSearchParams({ ...Object.fromEntries(p), database: open }), { replace: true });
  }, [database, databases.data, setParams, userId]);

  const completion = useMemo(() => {
    const out: Record<string, string[]> = {};
    for (const t of tables.data ?? []) out[t.name] = tableColumns(t.schema).map((c) => c.name);
    return out;
  }, [tables.data]);

  // Columns complete without a qualifier for the table the query reads (or the one the page was opened for).
  const fromTable = queriedTable(text);
  const defaultTable = fromTable && completion[fromTable] ? fromTable : (table ?? undefined);

  const current = job.data;
  const running = isRunning(current?.status);
  const failedMessage = current?.status === 'error' ? current.debug.stderr : null;
  // Positions only make sense while the editor still holds the query that failed.
  const position = useMemo(
    () => (current && failedMessage && current.query === text ? errorPosition(text, failedMessage) : null),
    [current, failedMessage, text],
  );
  const editorError = useMemo(
    () => (position && failedMessage ? { from: position.from, to: position.to, message: failedMessage } : null),
    [position, failedMessage],
  );

  const run = () => {
    if (!database || text.trim() === '' || issue.isPending) return;
    const query = text;
    issue.mutate(
      { database, query, engine, result },
      {
        onSuccess: ({ job_id }) => {
          saveQueryPrefs(localStorage, userId, { database, engine });
          issuedAt.current.set(job_id, Date.now());
          setRecent(rememberQuery(localStorage, userId, { database, query, at: Date.now(), jobId: job_id }));
          reopened.current = true;
          setParams((p) => new URLSearchParams({ ...Object.fromEntries(p), database, job: job_id }));
        },
      },
    );
  };

  const pick = (q: RecentQuery) => {
    setText(q.query);
    issue.reset();
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.set('database', q.database);
      next.delete('job');
      return next;
    });
  };

  return (
    <ImportDropZone database={database ?? undefined}>
      <PageHeader
        title="Query"
        description="Presto SQL or HiveQL on one database, run as a job. Ctrl+Enter (⌘+Enter) runs; Ctrl+Space completes table and column names; a click in the schema inserts a name."
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 9 }}>
          <Stack gap="sm">
            <Group align="flex-end" gap="sm">
              <Select
                label="Database"
                data={(databases.data ?? []).map((d) => d.name)}
                value={database}
                onChange={(value) =>
                  setParams((p) => {
                    const next = new URLSearchParams(p);
                    if (value) next.set('database', value);
                    next.delete('table');
                    return next;
                  })
                }
                searchable
                nothingFoundMessage="No database of that name"
                w={240}
                allowDeselect={false}
              />
              <Stack gap={4}>
                <Text size="sm" fw={500} id="engine-label">
                  Engine
                </Text>
                <SegmentedControl
                  aria-labelledby="engine-label"
                  value={engine}
                  onChange={(value) => setEngine(value as Engine)}
                  data={[
                    { value: 'presto', label: 'Presto' },
                    { value: 'hive', label: 'Hive' },
                  ]}
                />
              </Stack>
              <Button
                leftSection={<IconPlayerPlay size={16} />}
                onClick={run}
                loading={issue.isPending}
                disabled={!database || text.trim() === ''}
              >
                Run
              </Button>
              {current && running && (
                <Button
                  color="red"
                  variant="light"
                  leftSection={<IconPlayerStop size={16} />}
                  onClick={() => kill.mutate(current.job_id)}
                  loading={kill.isPending}
                >
                  Cancel query
                </Button>
              )}
              {current && <RunStatus job={current} issuedAt={issuedAt.current.get(current.job_id)} />}
              <SaveQueryButtons
                saved={saved}
                draft={{ engine, database: database ?? '', query: text }}
                onSaved={(q) => {
                  adopt(q);
                  setParams((p) => new URLSearchParams({ ...Object.fromEntries(p), saved: q.id }));
                }}
              />
              <ScheduleButton draft={{ database: database ?? '', type: engine, query: text }} />
            </Group>
            {databases.data?.length === 0 && (
              <Text size="sm" c="dimmed">
                There are no databases yet: create one or import a file first.
              </Text>
            )}
            <SqlEditor
              value={text}
              onChange={setText}
              onRun={run}
              tables={completion}
              defaultTable={defaultTable}
              error={editorError}
              inserter={inserter}
            />
            <TextInput
              label="Also write the result to"
              description="Optional: td://@/database/table (add ?mode=replace to replace its rows), an https:// webhook, or a result connection's name"
              placeholder="td://@/analytics/daily_counts"
              value={result}
              onChange={(e) => setResult(e.currentTarget.value)}
              maw={560}
            />
            {issue.error && (
              <Alert color="red" title="The query was not run">
                {issue.error.message}
              </Alert>
            )}
            {kill.error && (
              <Alert color="red" title="The query could not be stopped">
                {kill.error.message}
              </Alert>
            )}
            {job.isError && (
              <Alert color="red" title={`Job ${jobId} could not be loaded`}>
                {job.error.message}
              </Alert>
            )}
            {current && (
              <Paper withBorder={false} component="section" aria-label="Query result">
                <QueryOutcome job={current} position={position} />
              </Paper>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 3 }}>
          <Stack gap="md">
            <SchemaBrowser
              databases={(databases.data ?? []).map((d) => d.name)}
              current={database}
              onInsert={(name) => inserter.current?.(name)}
            />
            <RecentQueriesPanel
              queries={recent}
              onPick={pick}
              onClear={() => {
                forgetRecentQueries(localStorage, userId);
                setRecent([]);
              }}
            />
          </Stack>
        </Grid.Col>
      </Grid>
    </ImportDropZone>
  );
}
