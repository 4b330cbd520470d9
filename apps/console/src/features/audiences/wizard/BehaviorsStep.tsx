import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { tablesQueryOptions } from '../catalogApi';
import { type WizardBehavior, type WizardState, wizardKey } from './wizardState';

export interface BehaviorsStepProps {
  state: WizardState;
  onChange: (next: WizardState) => void;
}

const choose = (label: string, values: string[]) => [
  { value: '', label },
  ...values.map((v) => ({ value: v, label: v })),
];
const blank = { name: '', table: '', foreignKey: '', allColumns: false, columns: [] as string[] };

/** Behaviors: event tables whose rows belong to a profile through a foreign key, with all or chosen columns. */
export function BehaviorsStep({ state, onChange }: BehaviorsStepProps) {
  const tables = useQuery(tablesQueryOptions(state.database));
  const [draft, setDraft] = useState(blank);
  const table = tables.data?.find((t) => t.name === draft.table);
  const setBehaviors = (behaviors: WizardBehavior[]) => onChange({ ...state, behaviors });
  const taken = state.behaviors.some((b) => b.name === draft.name.trim());
  // What "Add behavior" still waits for, said beside it while it is disabled.
  const missing =
    draft.name.trim() === ''
      ? 'Name the behavior to add it.'
      : taken
        ? 'Another behavior has this name.'
        : draft.table === ''
          ? 'Choose the behavior table to add it.'
          : draft.foreignKey === ''
            ? `Choose the column matching ${state.parentKey} to add it.`
            : !draft.allColumns && draft.columns.length === 0
              ? 'Choose columns, or All columns, to add it.'
              : null;
  const complete = missing === null;

  const add = () => {
    setBehaviors([...state.behaviors, { ...draft, key: wizardKey(), name: draft.name.trim() }]);
    setDraft(blank);
  };

  return (
    <Stack gap="lg">
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Title order={3} size="h5">
            Add a behavior
          </Title>
          <Group align="flex-start" gap="sm">
            <TextInput
              label="Behavior name"
              value={draft.name}
              error={taken ? 'Another behavior has this name.' : undefined}
              onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
            />
            <NativeSelect
              label="Behavior table"
              data={choose(
                'Choose a table',
                (tables.data ?? []).map((t) => t.name),
              )}
              value={draft.table}
              onChange={(e) => {
                const name = draft.name || e.currentTarget.value;
                setDraft({ ...blank, name, table: e.currentTarget.value });
              }}
            />
            <NativeSelect
              label={`Column matching ${state.parentKey}`}
              disabled={!table}
              data={choose(
                'Choose',
                (table?.columns ?? []).map((c) => c.name),
              )}
              value={draft.foreignKey}
              onChange={(e) => setDraft({ ...draft, foreignKey: e.currentTarget.value })}
            />
          </Group>
          {table && (
            <>
              <Switch
                label="All columns"
                description="Takes every column with its default type; to change one column's type later, select columns individually."
                checked={draft.allColumns}
                onChange={(e) => setDraft({ ...draft, allColumns: e.currentTarget.checked })}
              />
              {!draft.allColumns && (
                <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs" role="group" aria-label="Behavior columns">
                  {table.columns.map((c) => (
                    <Checkbox
                      key={c.name}
                      label={c.name}
                      description={c.type}
                      checked={draft.columns.includes(c.name)}
                      onChange={(e) => {
                        const on = e.currentTarget.checked;
                        setDraft({
                          ...draft,
                          columns: on ? [...draft.columns, c.name] : draft.columns.filter((x) => x !== c.name),
                        });
                      }}
                    />
                  ))}
                </SimpleGrid>
              )}
            </>
          )}
          <Group>
            <Button
              variant="default"
              disabled={!complete}
              onClick={add}
              aria-describedby={missing ? 'behavior-missing' : undefined}
            >
              Add behavior
            </Button>
            {missing && (
              <Text id="behavior-missing" size="sm" c="dimmed">
                {missing}
              </Text>
            )}
          </Group>
        </Stack>
      </Paper>
      {state.behaviors.length === 0 ? (
        <Text c="dimmed" size="sm">
          No behaviors yet. Behaviors let segments count events, such as orders in the past 30 days.
        </Text>
      ) : (
        <Stack gap="xs" role="list" aria-label="Chosen behaviors">
          {state.behaviors.map((b) => (
            <Group key={b.key} role="listitem" justify="space-between" wrap="nowrap">
              <Text size="sm">
                <strong>{b.name}</strong>: {b.table} joined on {b.foreignKey},{' '}
                {b.allColumns ? 'all columns' : `columns ${b.columns.join(', ')}`}
              </Text>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove the behavior ${b.name}`}
                onClick={() => setBehaviors(state.behaviors.filter((x) => x.key !== b.key))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
