import { Table, Text } from '@mantine/core';
import type { JourneyStageFigures } from '@svc/contracts';

export interface StageTableProps {
  stages: Array<{ label: string; figures: JourneyStageFigures }>;
}

/** Per stage: entered, in it now, milestone, each exit criterion, and where leavers went. */
export function StageTable({ stages }: StageTableProps) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped verticalSpacing={6} aria-label="Stage figures">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Stage</Table.Th>
            <Table.Th ta="right">Entered</Table.Th>
            <Table.Th ta="right">In it now</Table.Th>
            <Table.Th ta="right">Reached the milestone</Table.Th>
            <Table.Th>Left by exit criterion</Table.Th>
            <Table.Th ta="right">Moved on</Table.Th>
            <Table.Th ta="right">To the goal</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {stages.map(({ label, figures }) => (
            <Table.Tr key={figures.stageId}>
              <Table.Td fw={600}>{label}</Table.Td>
              <Table.Td ta="right">{figures.entered.toLocaleString('en')}</Table.Td>
              <Table.Td ta="right">{figures.current.toLocaleString('en')}</Table.Td>
              <Table.Td ta="right">{figures.milestoneReached.toLocaleString('en')}</Table.Td>
              <Table.Td>
                {figures.exits.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    no exit criteria
                  </Text>
                ) : (
                  figures.exits.map((exit) => (
                    <Text key={exit.criterionIndex} size="sm">
                      {exit.name || `Exit ${exit.criterionIndex + 1}`}: {exit.profiles.toLocaleString('en')}
                    </Text>
                  ))
                )}
              </Table.Td>
              <Table.Td ta="right">{figures.flow.toNextStage.toLocaleString('en')}</Table.Td>
              <Table.Td ta="right">{figures.flow.toGoal.toLocaleString('en')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
