import { Alert, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { SegmentRule } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { rulePopulationQueryOptions, ruleSampleQueryOptions } from '../api';

export interface PopulationPanelProps {
  audienceId: string;
  /** The parent segment's last build time: counts run again after a build. */
  builtAt: string | null;
  /** Attribute names typed timestamp: their Unix seconds are shown as UTC times. */
  timestamps: ReadonlySet<string>;
  /** The compiled draft, or the sentence saying what is still missing. */
  rule: SegmentRule | { incomplete: string };
}

/** How long the rule must stay unchanged before it is counted: typing does not send a request per key. */
const DEBOUNCE_MS = 400;

function shown(value: unknown, timestamp: boolean): string {
  if (value === null || value === undefined) return '';
  if (timestamp && typeof value === 'number')
    return new Date(value * 1000).toISOString().slice(0, 16).replace('T', ' ');
  return String(value);
}

/** The live count of the draft rule and some of the profiles it matches. */
export function PopulationPanel({ audienceId, builtAt, timestamps, rule }: PopulationPanelProps) {
  // Debounce the JSON text: equal rules are equal strings, so an unchanged rule never counts again.
  const [settled] = useDebouncedValue(JSON.stringify(rule), DEBOUNCE_MS);
  const current = JSON.parse(settled) as SegmentRule | { incomplete: string };
  const ready = !('incomplete' in current);
  const count = useQuery({
    ...rulePopulationQueryOptions(audienceId, current as SegmentRule, builtAt),
    enabled: ready,
  });
  const sample = useQuery({ ...ruleSampleQueryOptions(audienceId, current as SegmentRule, builtAt), enabled: ready });
  const stale = settled !== JSON.stringify(rule) || count.isFetching;
  const profiles = sample.data?.profiles ?? [];
  const columns = [...new Set(profiles.flatMap((p) => Object.keys(p.attributes)))].slice(0, 6);

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Population
          </Title>
          {ready && stale && <Loader size="xs" aria-label="Counting" />}
        </Group>
        {'incomplete' in current ? (
          <Text size="sm" c="dimmed">
            {current.incomplete}
          </Text>
        ) : count.isError ? (
          <Alert color="red" title="The rule could not be counted">
            {count.error.message}
          </Alert>
        ) : (
          <Text
            fw={700}
            size="2rem"
            role="status"
            aria-label="Live population"
            aria-busy={stale}
            data-settled={!stale && count.data !== undefined}
          >
            {count.data === undefined ? '…' : count.data.population.toLocaleString('en')}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          Profiles that match the rule now; updated as you edit.
        </Text>
        {ready && profiles.length > 0 && (
          // Many attributes make the sample wider than its column: it scrolls inside, the page does not.
          <Table.ScrollContainer
            minWidth={0}
            type="native"
            tabIndex={0}
            role="region"
            aria-label="Sample of matching profiles"
          >
            <Table aria-label="Sample profiles" fz="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Key</Table.Th>
                  {columns.map((c) => (
                    <Table.Th key={c}>{c}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {profiles.map((p) => (
                  <Table.Tr key={p.key}>
                    <Table.Td>{p.key}</Table.Td>
                    {columns.map((c) => (
                      <Table.Td key={c}>{shown(p.attributes[c], timestamps.has(c))}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {ready && sample.isSuccess && profiles.length === 0 && (
          <Text size="sm" c="dimmed">
            No profile matches.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
