import { ActionIcon, Group, Loader, Paper, ScrollArea, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import type { Table } from '@svc/contracts';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { tablesQueryOptions } from '../databases/api';
import { formatCount, tableColumns } from '../shared/format';
import classes from './RecentQueriesPanel.module.css';

export interface SchemaBrowserProps {
  databases: string[];
  /** The editor's database: open at first. */
  current: string | null;
  /** Puts a name into the editor at the cursor. */
  onInsert: (text: string) => void;
}

/** A name that inserts itself on click, with an optional chevron that shows what is inside. */
function Entry(props: {
  name: string;
  detail?: string;
  kind: string;
  depth: number;
  open?: boolean;
  onToggle?: () => void;
  onInsert: () => void;
}) {
  return (
    <Group gap={2} wrap="nowrap" pl={props.depth * 14}>
      {props.onToggle ? (
        <ActionIcon
          size="sm"
          variant="subtle"
          color="gray"
          onClick={props.onToggle}
          aria-expanded={props.open}
          aria-label={`${props.open ? 'Hide' : 'Show'} ${props.kind === 'database' ? 'tables' : 'columns'} of ${props.name}`}
        >
          {props.open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        </ActionIcon>
      ) : (
        <span style={{ width: 22, flex: 'none' }} />
      )}
      <UnstyledButton
        className={classes.item}
        onClick={props.onInsert}
        aria-label={`Insert ${props.kind} ${props.name}`}
        style={{ padding: '2px 6px' }}
      >
        <Group gap={6} wrap="nowrap" justify="space-between">
          <Text size="xs" ff="monospace" truncate>
            {props.name}
          </Text>
          {props.detail && (
            <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
              {props.detail}
            </Text>
          )}
        </Group>
      </UnstyledButton>
    </Group>
  );
}

function TableEntry({ table, onInsert }: { table: Table; onInsert: (text: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <li>
      <Entry
        name={table.name}
        detail={`${formatCount(table.count)} rows`}
        kind="table"
        depth={1}
        open={open}
        onToggle={() => setOpen((o) => !o)}
        onInsert={() => onInsert(table.name)}
      />
      {open && (
        <ul className={classes.list} aria-label={`Columns of ${table.name}`}>
          {tableColumns(table.schema).map((c) => (
            <li key={c.name}>
              <Entry name={c.name} detail={c.type} kind="column" depth={2} onInsert={() => onInsert(c.name)} />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function DatabaseEntry(props: { name: string; initiallyOpen: boolean; onInsert: (text: string) => void }) {
  const [open, setOpen] = useState(props.initiallyOpen);
  const tables = useQuery({ ...tablesQueryOptions(props.name), enabled: open });
  let inside: ReactNode = null;
  if (open && tables.isPending) inside = <Loader size="xs" ml={36} aria-label={`Loading tables of ${props.name}`} />;
  else if (open && tables.isError)
    inside = (
      <Text size="xs" c="red" ml={36}>
        {tables.error.message}
      </Text>
    );
  else if (open && tables.data?.length === 0)
    inside = (
      <Text size="xs" c="dimmed" ml={36}>
        No tables yet.
      </Text>
    );
  else if (open && tables.data) {
    inside = (
      <ul className={classes.list} aria-label={`Tables of ${props.name}`}>
        {tables.data.map((t) => (
          <TableEntry key={t.name} table={t} onInsert={props.onInsert} />
        ))}
      </ul>
    );
  }
  return (
    <li>
      <Entry
        name={props.name}
        kind="database"
        depth={0}
        open={open}
        onToggle={() => setOpen((o) => !o)}
        onInsert={() => props.onInsert(props.name)}
      />
      {inside}
    </li>
  );
}

/** Databases, their tables with row counts, and columns with types; a click on a name inserts it. */
export function SchemaBrowser({ databases, current, onInsert }: SchemaBrowserProps) {
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="schema-title">
      <Title order={2} size="h5" id="schema-title" mb="xs">
        Schema
      </Title>
      {databases.length === 0 ? (
        <Text size="sm" c="dimmed">
          No databases yet.
        </Text>
      ) : (
        <ScrollArea.Autosize mah={420} type="auto">
          <Stack gap={0} component="ul" className={classes.list}>
            {databases.map((d) => (
              <DatabaseEntry key={d} name={d} initiallyOpen={d === current} onInsert={onInsert} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Paper>
  );
}
