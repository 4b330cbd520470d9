import { Alert, Button, Group, Paper, Stepper } from '@mantine/core';
import type { AdvancedConfig, GuessResult, TargetType } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { databasesQueryOptions } from '../../lib/resources';
import { AuthStep } from './AuthStep';
import { useCreateIntegration, useGuess } from './api';
import { FeatureGate } from './FeatureGate';
import { type ReviewSettings, ReviewStep } from './ReviewStep';
import { TablesStep } from './TablesStep';

type Available = Record<string, { name: string; source_type: string; options: TargetType[] }[]>;

/** The sync wizard: authentication → tables → review the guessed configuration → create and run. */
export function SyncWizardPage() {
  const navigate = useNavigate();
  const [step, setStep] = useState(0);
  const [authId, setAuthId] = useState<number | null>(null);
  const [schema, setSchema] = useState('public');
  const [selected, setSelected] = useState<string[]>([]);
  const [guessed, setGuessed] = useState<GuessResult | null>(null);
  const [tables, setTables] = useState<AdvancedConfig[]>([]);
  const [available, setAvailable] = useState<Available>({});
  const [settings, setSettings] = useState<ReviewSettings>({
    name: '',
    database: 'warehouse',
    scheduleType: 'none',
    scheduleOption: '',
    timezone: 'UTC',
  });
  const guess = useGuess();
  const create = useCreateIntegration();
  const databases = useQuery(databasesQueryOptions());

  const runGuess = () => {
    if (authId === null) return;
    guess.mutate(
      { svc_authentication_id: authId, schema, tables: selected },
      {
        onSuccess: (g) => {
          setGuessed(g);
          setTables(g.advanced_configs);
          setAvailable(
            Object.fromEntries(
              g.advanced_configs.map((a) => [
                `${a.config.schema}.${a.config.table}`,
                a.config.columns.map((c) => ({
                  name: c.name,
                  source_type: c.source_type ?? '',
                  options: c.options ?? [c.type],
                })),
              ]),
            ),
          );
          setSettings((s) => ({ ...s, name: s.name || `Sync ${selected.join(', ')}`.slice(0, 200) }));
          setStep(2);
        },
      },
    );
  };

  const submit = () => {
    if (!guessed) return;
    const exists = (databases.data ?? []).some((d) => d.name === settings.database);
    create.mutate(
      {
        createDatabase: !exists,
        body: {
          name: settings.name,
          schedule_type: settings.scheduleType,
          schedule_option: settings.scheduleType === 'none' ? null : settings.scheduleOption,
          timezone: settings.timezone,
          basic_configs: guessed.basic_configs,
          advanced_configs: tables,
          output_config: { database: settings.database },
        },
      },
      { onSuccess: (id) => navigate(`/data/sync/${id}`) },
    );
  };

  return (
    <FeatureGate>
      <PageHeader
        title="New warehouse sync"
        description="Copy tables from a PostgreSQL warehouse into a database here."
      />
      <Paper withBorder p="lg" radius="md">
        <Stepper active={step} onStepClick={(s) => s < step && setStep(s)} size="sm">
          <Stepper.Step label="Authentication">
            <AuthStep authId={authId} onChange={setAuthId} />
          </Stepper.Step>
          <Stepper.Step label="Tables">
            {authId !== null && (
              <TablesStep
                authId={authId}
                schema={schema}
                onSchema={setSchema}
                selected={selected}
                onSelected={setSelected}
              />
            )}
          </Stepper.Step>
          <Stepper.Step label="Review">
            <ReviewStep
              settings={settings}
              onSettings={setSettings}
              tables={tables}
              available={available}
              onTables={setTables}
            />
          </Stepper.Step>
        </Stepper>
        {guess.isError && (
          <Alert color="red" title="The tables could not be read" mt="md">
            {guess.error.message}
          </Alert>
        )}
        {create.isError && (
          <Alert color="red" title="The sync was not created" mt="md">
            {create.error.message}
          </Alert>
        )}
        <Group justify="flex-end" mt="lg">
          {step > 0 && (
            <Button variant="default" onClick={() => setStep(step - 1)}>
              Back
            </Button>
          )}
          {step === 0 && (
            <Button disabled={authId === null} onClick={() => setStep(1)}>
              Next: choose tables
            </Button>
          )}
          {step === 1 && (
            <Button disabled={selected.length === 0} loading={guess.isPending} onClick={runGuess}>
              Next: review configuration
            </Button>
          )}
          {step === 2 && (
            <Button loading={create.isPending} disabled={!settings.name || !settings.database} onClick={submit}>
              Create and run
            </Button>
          )}
        </Group>
      </Paper>
    </FeatureGate>
  );
}
