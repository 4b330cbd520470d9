import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdvancedConfig, IntegrationConfigs } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { integrationQueryOptions, tableSchemaQueryOptions, useGuess, useUpdateIntegration } from './api';
import { FeatureGate } from './FeatureGate';
import { type Schedule, ScheduleFields } from './ScheduleFields';
import { TableReview } from './TableReview';
import { TablesStep } from './TablesStep';

interface EditedTableProps {
  authId: number;
  database: string | undefined;
  config: AdvancedConfig;
  onChange: (next: AdvancedConfig) => void;
  onRemove: () => void;
}

/** One table of the sync, with every column of its source (read again) so unticked ones can come back. */
function EditedTable({ authId, database, config, onChange, onRemove }: EditedTableProps) {
  const t = config.config;
  const schema = useQuery(tableSchemaQueryOptions(authId, t.schema, t.table, database));
  const available = schema.data
    ? schema.data.columns.flatMap((c) =>
        c.type ? [{ name: c.name, source_type: c.source_type, options: c.options }] : [],
      )
    : t.columns.map((c) => ({ name: c.name, source_type: c.source_type ?? '', options: c.options ?? [c.type] }));
  return (
    <Stack gap={4}>
      {schema.isError && (
        <Text size="sm" c="red">
          The columns of {t.schema}.{t.table} could not be read: {schema.error.message}
        </Text>
      )}
      <TableReview config={config} available={available} onChange={onChange} onRemove={onRemove} />
    </Stack>
  );
}

function EditForm({
  id,
  configs,
  name,
  schedule,
}: {
  id: string;
  configs: IntegrationConfigs;
  name: string;
  schedule: Schedule;
}) {
  const navigate = useNavigate();
  const basic = configs.basic_configs;
  const authId = basic.svc_authentication_id;
  const [title, setTitle] = useState(name);
  const [when, setWhen] = useState<Schedule>(schedule);
  const [tables, setTables] = useState<AdvancedConfig[]>(configs.advanced_configs);
  const [schema, setSchema] = useState(basic.schema ?? 'public');
  const [picked, setPicked] = useState<string[]>([]);
  const update = useUpdateIntegration(id);
  const guess = useGuess();
  const sourceOf = (a: AdvancedConfig) => `${a.config.schema}.${a.config.table}`;

  const addTables = () => {
    const have = new Set(tables.map(sourceOf));
    const wanted = picked.filter((t) => !have.has(`${schema}.${t}`));
    if (wanted.length === 0) return;
    guess.mutate(
      {
        svc_authentication_id: authId,
        schema,
        tables: wanted,
        ...(basic.database ? { database: basic.database } : {}),
      },
      {
        onSuccess: (g) => {
          setTables((ts) => [
            ...ts,
            ...g.advanced_configs.map(({ target_table, config }) => ({ target_table, config })),
          ]);
          setPicked([]);
        },
      },
    );
  };
  const save = () =>
    update.mutate(
      {
        name: title,
        schedule_type: when.scheduleType,
        schedule_option: when.scheduleType === 'none' ? null : when.scheduleOption,
        timezone: when.timezone,
        basic_configs: { ...basic, tables: tables.map(sourceOf) },
        advanced_configs: tables,
      },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: `Sync ${title} was saved.` });
          void navigate(`/data/sync/${id}`);
        },
      },
    );

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Integration name" value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
        <ScheduleFields value={when} onChange={setWhen} />
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        Changing a table's mode, key, incremental column, source or a column's type makes its next run a re-sync from
        scratch, so old and new rows never mix. Adding or removing columns does not.
      </Text>
      {tables.map((t, i) => (
        <EditedTable
          key={sourceOf(t)}
          authId={authId}
          database={basic.database}
          config={t}
          onChange={(next) => setTables(tables.map((x, j) => (j === i ? next : x)))}
          onRemove={() => setTables(tables.filter((_, j) => j !== i))}
        />
      ))}
      <Paper withBorder p="md" radius="md">
        <Title order={3} size="h5" mb="xs">
          Add tables
        </Title>
        <TablesStep authId={authId} schema={schema} onSchema={setSchema} selected={picked} onSelected={setPicked} />
        <Button mt="sm" variant="light" disabled={picked.length === 0} loading={guess.isPending} onClick={addTables}>
          Add the chosen tables
        </Button>
        {guess.isError && (
          <Alert color="red" title="The tables could not be read" mt="sm">
            {guess.error.message}
          </Alert>
        )}
      </Paper>
      {update.isError && (
        <Alert color="red" title="The sync was not saved">
          {update.error.message}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => void navigate(`/data/sync/${id}`)}>
          Cancel
        </Button>
        <Button loading={update.isPending} disabled={!title || tables.length === 0} onClick={save}>
          Save changes
        </Button>
      </Group>
    </Stack>
  );
}

/** Edit a sync: its name, schedule, tables, their columns and modes. */
export function SyncEditPage() {
  const id = useParams().dwhId ?? '';
  const integration = useQuery(integrationQueryOptions(id));
  if (integration.isPending) return <CenteredLoader label="Loading the sync" />;
  if (integration.isError)
    return (
      <QueryError
        title="The sync could not be loaded"
        error={integration.error}
        onRetry={() => integration.refetch()}
      />
    );
  const { item, configs } = integration.data;
  return (
    <FeatureGate>
      <PageHeader title={`Edit ${item.name}`} description={`Into ${configs.output_config.database}.`} />
      <EditForm
        id={id}
        configs={configs}
        name={item.name}
        schedule={{ scheduleType: item.schedule_type, scheduleOption: item.schedule_option, timezone: item.timezone }}
      />
    </FeatureGate>
  );
}
