import { Button, Group, Paper, ScrollArea, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { formatRelative } from '../../../lib/time';
import classes from './RecentQueriesPanel.module.css';
import type { RecentQuery } from './recentQueries';

export interface RecentQueriesPanelProps {
  queries: RecentQuery[];
  onPick: (query: RecentQuery) => void;
  onClear: () => void;
}

/** The user's latest queries in this browser; picking one puts it back in the editor. */
export function RecentQueriesPanel({ queries, onPick, onClear }: RecentQueriesPanelProps) {
  const now = new Date();
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="recent-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5" id="recent-title">
          Recent queries
        </Title>
        {queries.length > 0 && (
          <Button size="compact-xs" variant="subtle" color="gray" onClick={onClear}>
            Clear
          </Button>
        )}
      </Group>
      {queries.length === 0 ? (
        <Text size="sm" c="dimmed">
          Queries you run are listed here, in this browser only.
        </Text>
      ) : (
        <ScrollArea.Autosize mah={520} type="auto">
          <Stack gap={4} component="ul" className={classes.list}>
            {queries.map((q) => (
              <li key={`${q.at}:${q.database}`}>
                <UnstyledButton
                  className={classes.item}
                  onClick={() => onPick(q)}
                  aria-label={`Open recent query on ${q.database}: ${q.query.slice(0, 80)}`}
                >
                  <Text size="xs" ff="monospace" lineClamp={3}>
                    {q.query}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {q.database} · {formatRelative(new Date(q.at), now)}
                  </Text>
                </UnstyledButton>
              </li>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Paper>
  );
}
