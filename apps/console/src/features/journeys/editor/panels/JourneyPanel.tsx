import { Button, Stack, Switch, Textarea, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useEditor, useEditorStore } from '../EditorContext';
import { SegmentPicker } from './fields';

/** Journey-wide settings: name, description, goal and re-entry. */
export function JourneyPanel() {
  const journey = useEditor((s) => s.journey);
  const store = useEditorStore();
  const dispatch = store.getState().dispatch;
  return (
    <Stack gap="md">
      <Title order={3} size="h4">
        Journey settings
      </Title>
      <TextInput
        label="Journey name"
        value={journey.name}
        onChange={(e) =>
          dispatch({ type: 'updateJourney', patch: { name: e.currentTarget.value } }, { coalesceKey: 'journey.name' })
        }
      />
      <Textarea
        label="Description"
        autosize
        minRows={2}
        value={journey.description ?? ''}
        onChange={(e) =>
          dispatch(
            { type: 'updateJourney', patch: { description: e.currentTarget.value } },
            { coalesceKey: 'journey.description' },
          )
        }
      />
      <TextInput
        label="Goal name"
        data-goal-name
        value={journey.goal?.name ?? ''}
        onChange={(e) =>
          dispatch(
            {
              type: 'setGoal',
              goal: {
                name: e.currentTarget.value,
                description: journey.goal?.description ?? null,
                segmentId: journey.goal?.segmentId ?? null,
              },
            },
            { coalesceKey: 'journey.goal' },
          )
        }
      />
      <SegmentPicker
        label="Goal segment"
        description="Profiles in this segment have reached the journey's goal."
        value={journey.goal?.segmentId}
        onChange={(segmentId) =>
          dispatch({
            type: 'setGoal',
            goal:
              segmentId === null && !journey.goal?.name
                ? null
                : { name: journey.goal?.name ?? '', description: journey.goal?.description ?? null, segmentId },
          })
        }
      />
      <Switch
        label="Allow re-entry"
        description="Profiles that left the journey may enter it again."
        checked={journey.allowReentry}
        onChange={(e) => dispatch({ type: 'updateJourney', patch: { allowReentry: e.currentTarget.checked } })}
      />
      <Button
        variant="light"
        leftSection={<IconPlus size={16} />}
        disabled={journey.journeyStages.length >= 8}
        onClick={() => dispatch({ type: 'addStage' })}
      >
        Add stage
      </Button>
    </Stack>
  );
}
