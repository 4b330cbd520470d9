import { Badge, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { JourneyAbTestFigures } from '@svc/contracts';
import { percentText, significanceOf, upliftText } from './statisticsFormat';

export interface AbTestResultsProps {
  tests: JourneyAbTestFigures[];
  stageLabel(stageId: string): string;
  /** Whether the journey has a goal: conversion means reaching it. */
  hasGoal: boolean;
}

/** One table per A/B test: each variant's profiles and goal conversion against the control. */
export function AbTestResults({ tests, stageLabel, hasGoal }: AbTestResultsProps) {
  if (tests.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This journey has no A/B tests.
      </Text>
    );
  }
  return (
    <Stack gap="md">
      {!hasGoal && (
        <Text size="sm" c="dimmed">
          The journey has no goal, so no variant can convert; conversions stay at zero.
        </Text>
      )}
      {tests.map((test) => (
        <Paper key={test.stepId} withBorder radius="md" p="sm">
          <Title order={4} size="h5">
            {test.name}
          </Title>
          <Text size="xs" c="dimmed" mb="xs">
            {stageLabel(test.stageId)} · conversion = reached the goal after assignment
          </Text>
          <Table.ScrollContainer minWidth={640}>
            <Table striped verticalSpacing={6} aria-label={`A/B test results: ${test.name}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Variant</Table.Th>
                  <Table.Th ta="right">Share</Table.Th>
                  <Table.Th ta="right">Profiles</Table.Th>
                  <Table.Th ta="right">Reached the goal</Table.Th>
                  <Table.Th ta="right">Conversion</Table.Th>
                  <Table.Th ta="right">Uplift vs control</Table.Th>
                  <Table.Th>Significance</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {test.variants.map((variant) => {
                  const significance = significanceOf(variant);
                  return (
                    <Table.Tr key={variant.variantId}>
                      <Table.Td fw={600}>{variant.name}</Table.Td>
                      <Table.Td ta="right">{variant.percentage} %</Table.Td>
                      <Table.Td ta="right">{variant.profiles.toLocaleString('en')}</Table.Td>
                      <Table.Td ta="right">{variant.goalReached.toLocaleString('en')}</Table.Td>
                      <Table.Td ta="right">{percentText(variant.conversionRate)}</Table.Td>
                      <Table.Td ta="right">{upliftText(variant)}</Table.Td>
                      <Table.Td>
                        <Badge color={significance.color} variant="light">
                          {significance.label}
                        </Badge>
                        {!variant.control && variant.pValue !== null && (
                          <Text span size="xs" c="dimmed" ml={6}>
                            {significance.detail}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      ))}
    </Stack>
  );
}
