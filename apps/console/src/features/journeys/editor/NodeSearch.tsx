import { Modal, Text, TextInput, UnstyledButton } from '@mantine/core';
import { stepKinds } from '@svc/journey';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useEditor } from './EditorContext';
import { stageTitle, stepDisplayName } from './model/flow';

export interface NodeSearchProps {
  opened: boolean;
  onClose(): void;
  onPick(nodeId: string): void;
}

interface Hit {
  id: string;
  label: string;
  where: string;
  text: string;
}

const MAX_HITS = 50;

/**
 * Finds a step (or a stage) by name or kind in a large journey and goes to it. The results are a list
 * inside the dialog itself (not a dropdown, which other layers could cover): click one, or move with the
 * arrow keys and press Enter.
 */
export function NodeSearch({ opened, onClose, onPick }: NodeSearchProps) {
  const journey = useEditor((s) => s.journey);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  // Go to the step once the dialog is gone, so focus lands on the step and stays there.
  const picked = useRef<string | null>(null);
  const all = useMemo<Hit[]>(
    () =>
      journey.journeyStages.flatMap((stage, stageIndex) => {
        const where = stageTitle(stageIndex, stage.name);
        return [
          { id: `start-${stageIndex}`, label: 'Entry criteria of the stage', where, text: '' },
          ...Object.entries(stage.steps ?? {}).map(([id, step]) => ({
            id,
            label: stepDisplayName(step),
            where: `${stepKinds[step.type].label} · ${where}`,
            text: '',
          })),
        ].map((hit) => ({ ...hit, text: `${hit.label} ${hit.where}`.toLowerCase() }));
      }),
    [journey],
  );
  const hits = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return all.filter((h) => words.every((w) => h.text.includes(w))).slice(0, MAX_HITS);
  }, [all, query]);
  useEffect(() => {
    if (opened) {
      setQuery('');
      setActive(0);
    }
  }, [opened]);
  const pick = (id: string | undefined) => {
    if (!id) return;
    picked.current = id;
    onClose();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (hits.length === 0 ? 0 : (i + step + hits.length) % hits.length));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      pick(hits[active]?.id);
    }
  };
  const activeId = hits[active] ? `${listId}-${active}` : undefined;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Find a step"
      size="lg"
      returnFocus={false}
      onExitTransitionEnd={() => {
        const id = picked.current;
        picked.current = null;
        if (id) onPick(id);
      }}
    >
      <TextInput
        data-autofocus
        label="Step name or kind"
        placeholder="e.g. wait, offer, stage 2"
        value={query}
        onChange={(e) => {
          setQuery(e.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        role="combobox"
        aria-expanded
        aria-controls={listId}
        aria-activedescendant={activeId}
        aria-autocomplete="list"
      />
      <div
        id={listId}
        role="listbox"
        aria-label="Matching steps"
        style={{ marginTop: 8, maxHeight: 360, overflowY: 'auto' }}
      >
        {hits.map((hit, index) => (
          <UnstyledButton
            key={hit.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            tabIndex={-1}
            aria-label={`${hit.label} · ${hit.where}`}
            onMouseEnter={() => setActive(index)}
            onClick={() => pick(hit.id)}
            style={{
              display: 'block',
              width: '100%',
              padding: '6px 10px',
              borderRadius: 6,
              background: index === active ? 'var(--mantine-color-blue-0)' : undefined,
            }}
          >
            <Text size="sm" fw={600}>
              {hit.label}
            </Text>
            <Text size="xs" c="dimmed">
              {hit.where}
            </Text>
          </UnstyledButton>
        ))}
        {hits.length === 0 && (
          <Text size="sm" c="dimmed" p="xs">
            No step matches “{query}”.
          </Text>
        )}
      </div>
    </Modal>
  );
}
