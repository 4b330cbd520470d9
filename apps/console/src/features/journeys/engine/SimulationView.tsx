import { Alert, Button, Group, NumberInput, Paper, Radio, Stack, Text, TextInput } from '@mantine/core';
import type { JourneySimulationRequest } from '@svc/contracts';
import type { Journey } from '@svc/journey';
import { IconPlayerTrackNext } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { QueryError } from '../../../components/QueryError';
import { InlineTime } from '../../../components/Timestamp';
import { useEditor } from '../editor/EditorContext';
import { isDirty } from '../editor/model/editorStore';
import { simulationQuery } from './engineQueries';
import { journeyIndex } from './journeyIndex';
import { SimulatedPath } from './SimulatedPath';

export interface SimulationViewProps {
  journeyId: string;
  journey: Journey;
  /** The parent segment's key column, to say what a profile key is. */
  keyColumn: string | null;
  segmentName(id: string): string | undefined;
  activationName(id: string): string | undefined;
}

type Who = 'profile' | 'sample';
type Horizon = 'days' | 'until';

/** A dry run: the path a profile (or a sample) would take up to a future day, and why. Changes nothing. */
export function SimulationView({ journeyId, journey, keyColumn, segmentName, activationName }: SimulationViewProps) {
  const [who, setWho] = useState<Who>('profile');
  const [profileKey, setProfileKey] = useState('');
  const [sample, setSample] = useState<number | string>(5);
  const [horizon, setHorizon] = useState<Horizon>('days');
  const [days, setDays] = useState<number | string>(30);
  const [until, setUntil] = useState('');
  const [request, setRequest] = useState<JourneySimulationRequest | null>(null);
  const dirty = useEditor(isDirty);
  const simulation = useQuery({
    ...simulationQuery(journeyId, request ?? {}),
    enabled: request !== null,
  });
  const index = journeyIndex(journey);

  const ready =
    (who === 'sample' || profileKey.trim() !== '') &&
    (horizon === 'days' ? typeof days === 'number' : until !== '') &&
    (who === 'profile' || typeof sample === 'number');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setRequest({
      ...(who === 'profile' ? { profileKey: profileKey.trim() } : { sample: Number(sample) }),
      ...(horizon === 'days' ? { days: Number(days) } : { until }),
    });
  };

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md" component="form" onSubmit={onSubmit} aria-label="Simulation settings">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Plays the journey forward for one profile or a sample, with today's segment memberships, and shows every
            step with the reason. Nothing is stored and no activation is sent.
          </Text>
          {dirty && (
            <Alert color="orange" variant="light">
              The journey has unsaved changes; the simulation uses the saved version.
            </Alert>
          )}
          <Group align="flex-start" gap="xl">
            <Stack gap="xs">
              <Radio.Group label="Who" value={who} onChange={(v) => setWho(v as Who)}>
                <Group gap="md" mt={4}>
                  <Radio value="profile" label="One profile" />
                  <Radio value="sample" label="A sample" />
                </Group>
              </Radio.Group>
              {who === 'profile' ? (
                <TextInput
                  label="Profile key"
                  description={keyColumn ? `The value of its ${keyColumn} column` : 'The value of its key column'}
                  value={profileKey}
                  onChange={(e) => setProfileKey(e.currentTarget.value)}
                  w={260}
                />
              ) : (
                <NumberInput
                  label="Sample size"
                  description="Profiles that would enter, or are in the journey (1–20)"
                  min={1}
                  max={20}
                  allowDecimal={false}
                  value={sample}
                  onChange={setSample}
                  w={260}
                />
              )}
            </Stack>
            <Stack gap="xs">
              <Radio.Group label="How far ahead" value={horizon} onChange={(v) => setHorizon(v as Horizon)}>
                <Group gap="md" mt={4}>
                  <Radio value="days" label="Days from now" />
                  <Radio value="until" label="Until a date" />
                </Group>
              </Radio.Group>
              {horizon === 'days' ? (
                <NumberInput
                  label="Days ahead"
                  description="1 to 730"
                  min={1}
                  max={730}
                  allowDecimal={false}
                  value={days}
                  onChange={setDays}
                  w={200}
                />
              ) : (
                <TextInput
                  type="date"
                  label="Until (UTC)"
                  description="A future day"
                  value={until}
                  onChange={(e) => setUntil(e.currentTarget.value)}
                  w={200}
                />
              )}
            </Stack>
          </Group>
          <Group>
            <Button
              type="submit"
              leftSection={<IconPlayerTrackNext size={16} />}
              disabled={!ready}
              loading={simulation.isFetching}
            >
              Simulate
            </Button>
          </Group>
        </Stack>
      </Paper>
      {simulation.error && <QueryError title="The simulation did not run" error={simulation.error} />}
      {simulation.data && (
        <Stack gap="md" aria-label="Simulation results" component="section">
          <Text size="sm" c="dimmed">
            From <InlineTime value={simulation.data.meta.from} /> to <InlineTime value={simulation.data.meta.until} />.{' '}
            {simulation.data.meta.note}
          </Text>
          {simulation.data.data.length === 0 && <Text size="sm">No profile would enter the journey.</Text>}
          {simulation.data.data.map((profile) => (
            <SimulatedPath
              key={profile.profileKey}
              profile={profile}
              index={index}
              names={{ segment: segmentName, activation: activationName }}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
