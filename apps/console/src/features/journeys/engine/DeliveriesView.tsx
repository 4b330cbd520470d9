import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Journey } from '@svc/journey';
import { IconRefresh } from '@tabler/icons-react';
import { useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { QueryError } from '../../../components/QueryError';
import { activationsQuery, journeyKeys } from '../api';
import { ActivationDeliveries } from './ActivationDeliveries';
import { scheduleText } from './deliveryFormat';
import { journeyIndex } from './journeyIndex';
import { NotificationsOutbox } from './NotificationsOutbox';

export interface DeliveriesViewProps {
  journeyId: string;
  journey: Journey;
  canDownload: boolean;
}

/** Every activation of the journey with its deliveries, then the notifications outbox. */
export function DeliveriesView({ journeyId, journey, canDownload }: DeliveriesViewProps) {
  const activations = useQuery(activationsQuery(journeyId));
  const client = useQueryClient();
  const refreshing = useIsFetching({ queryKey: journeyKeys.allDeliveries(journeyId) }) > 0;
  const refresh = () => {
    void client.invalidateQueries({ queryKey: journeyKeys.allDeliveries(journeyId) });
    void client.invalidateQueries({ queryKey: journeyKeys.notifications(journeyId) });
  };
  if (activations.isPending) return <CenteredLoader label="Loading the activations" />;
  if (activations.error) return <QueryError title="Activations could not be loaded" error={activations.error} />;
  const index = journeyIndex(journey);
  const stepsUsing = (activationId: string) =>
    journey.journeyStages.flatMap((stage) =>
      Object.entries(stage.steps ?? {})
        .filter(([, step]) => step.type === 'Activation' && step.journeyActivationStepId === activationId)
        .map(([stepId]) => index.stepLabel(stepId)),
    );
  const nameOf = (id: string) =>
    activations.data.data.find((a) => a.id === id)?.attributes.syndication_params.name ?? `Activation ${id}`;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Profiles that reach an activation step are queued and sent on the activation's schedule.
        </Text>
        <Button variant="default" leftSection={<IconRefresh size={16} />} loading={refreshing} onClick={refresh}>
          Refresh
        </Button>
      </Group>
      {activations.data.data.length === 0 && (
        <Text size="sm" c="dimmed">
          This journey has no activations.
        </Text>
      )}
      {activations.data.data.map((activation) => {
        const params = activation.attributes.syndication_params;
        const used = stepsUsing(activation.id);
        return (
          <Paper key={activation.id} withBorder radius="md" p="md" component="section" aria-label={params.name}>
            <Title order={3} size="h5">
              {params.name}
            </Title>
            <Text size="xs" c="dimmed" mb="sm">
              To {params.connectionId}, {scheduleText(params)}
              {params.allColumns ? ', every column' : `, columns: ${params.columns.join(', ') || 'the key only'}`}
              {used.length > 0 ? ` · used by ${used.join(', ')}` : ' · no step uses it'}
            </Text>
            <ActivationDeliveries
              journeyId={journeyId}
              activationId={activation.id}
              activationName={params.name}
              canDownload={canDownload}
            />
          </Paper>
        );
      })}
      <Paper withBorder radius="md" p="md" component="section" aria-label="Notifications outbox">
        <Title order={3} size="h5" mb="sm">
          Notifications outbox
        </Title>
        <NotificationsOutbox journeyId={journeyId} activationName={nameOf} />
      </Paper>
    </Stack>
  );
}
