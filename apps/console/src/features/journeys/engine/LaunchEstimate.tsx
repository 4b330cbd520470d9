import { Alert, Loader, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { QueryError } from '../../../components/QueryError';
import { countOf } from '../../../lib/words';
import { stageTitle } from '../editor/model/flow';
import { estimateQuery } from './engineQueries';

const n = (value: number) => value.toLocaleString('en');

/**
 * Before launch: how many profiles the first run would put in each stage, how many reach the goal or
 * exit, and the overlap rule in words. Computed by the server with the engine itself, on today's
 * segment memberships, for the journey as saved.
 */
export function LaunchEstimate({ journeyId, unsaved }: { journeyId: string; unsaved: boolean }) {
  const estimate = useQuery(estimateQuery(journeyId));
  if (estimate.isPending) {
    return (
      <Text size="sm" c="dimmed">
        <Loader size="xs" mr={6} />
        Estimating who enters…
      </Text>
    );
  }
  if (estimate.error) return <QueryError title="No estimate" error={estimate.error} />;
  const e = estimate.data;
  return (
    <Stack gap="xs" aria-label="Launch estimate" role="region">
      <Text size="sm">
        Of the parent segment’s {countOf(e.profiles, 'profile')}, <strong>{n(e.entering)}</strong> would enter at the
        first run.
      </Text>
      <Table withTableBorder verticalSpacing={4} fz="sm" aria-label="Entry estimate by stage">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Stage</Table.Th>
            <Table.Th ta="right">Match entry</Table.Th>
            <Table.Th ta="right">Enter</Table.Th>
            <Table.Th ta="right">Start later</Table.Th>
            <Table.Th ta="right">Kept out</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {e.stages.map((stage, index) => (
            <Table.Tr key={stage.stageId} data-testid={`estimate-stage-${index + 1}`}>
              <Table.Td>{stageTitle(index, stage.name)}</Table.Td>
              <Table.Td ta="right">{n(stage.matchingEntry)}</Table.Td>
              <Table.Td ta="right" fw={700} data-testid={`estimate-enter-${index + 1}`}>
                {n(stage.entering)}
              </Table.Td>
              <Table.Td ta="right">{n(stage.takenByLaterStage)}</Table.Td>
              <Table.Td ta="right">{n(stage.keptOut)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" data-testid="estimate-goal">
        Goal: {countOf(e.goal.inGoalNow, 'profile')} already in the goal segment (they do not enter);{' '}
        {n(e.goal.reaching)} would reach it at the first run. Exits at the first run: {n(e.exiting)}. Queued for
        activations: {n(e.queued)}.
      </Text>
      <Text size="xs" c="dimmed">
        {e.rule} “Start later”: matches this stage but starts in a later one. “Kept out”: matches but is in the goal or
        an exit segment.
      </Text>
      {unsaved && (
        <Alert color="orange" p="xs">
          These figures are for the journey as last saved; launching saves your changes first.
        </Alert>
      )}
    </Stack>
  );
}
