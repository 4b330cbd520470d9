import { Button, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { IconCopy, IconTrash } from '@tabler/icons-react';
import { ActivationDeliveries } from '../../engine/ActivationDeliveries';
import { useEditor, useEditorStore, useEnvironment } from '../EditorContext';
import { ActivationButton } from './ActivationButton';
import { JourneyPanel } from './JourneyPanel';
import { StagePanel } from './StagePanel';
import { StepPanel } from './StepPanel';

/** The editor's right-hand panel: what is selected, or the journey's settings. */
export function SidePanel() {
  const selection = useEditor((s) => s.selection);
  const readOnly = useEditor((s) => s.readOnly);
  const store = useEditorStore();
  const { activations, launchedJourneyId, canDownload } = useEnvironment();
  const single = selection?.kind === 'steps' && selection.stepIds.length === 1 ? selection : null;
  const step = useEditor((s) =>
    single ? s.journey.journeyStages[single.stageIndex]?.steps?.[single.stepIds[0] as string] : undefined,
  );
  let body: React.ReactNode;
  if (selection?.kind === 'steps' && selection.stepIds.length === 1) {
    body = <StepPanel stageIndex={selection.stageIndex} stepId={selection.stepIds[0] as string} />;
  } else if (selection?.kind === 'steps') {
    body = (
      <Stack gap="sm">
        <Text fw={600}>{selection.stepIds.length} steps selected</Text>
        <Button variant="light" leftSection={<IconCopy size={16} />} onClick={() => store.getState().copy()}>
          Copy steps
        </Button>
        <Button
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} />}
          onClick={() => store.getState().deleteSelection()}
        >
          Delete steps
        </Button>
      </Stack>
    );
  } else if (selection?.kind === 'stage') {
    body = <StagePanel stageIndex={selection.stageIndex} />;
  } else {
    body = <JourneyPanel />;
  }
  return (
    <ScrollArea h="100%" type="auto" offsetScrollbars>
      <aside aria-label="Selected item settings" style={{ padding: 14 }}>
        {readOnly && (
          <Text size="sm" c="dimmed" mb="sm">
            Read-only: this journey cannot be changed here.
          </Text>
        )}
        <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          {body}
        </fieldset>
        {/* Outside the read-only fieldset: activations stay editable after launch (for those who may edit). */}
        {single && step?.type === 'Activation' && (
          <ActivationButton
            stageIndex={single.stageIndex}
            stepId={single.stepIds[0] as string}
            linkedId={step.journeyActivationStepId}
          />
        )}
        {single && step?.type === 'Activation' && step.journeyActivationStepId && launchedJourneyId && (
          <Stack gap="xs" mt="lg">
            <Title order={4} size="h6">
              Latest deliveries
            </Title>
            <ActivationDeliveries
              journeyId={launchedJourneyId}
              activationId={step.journeyActivationStepId}
              activationName={activations.find((a) => a.id === step.journeyActivationStepId)?.name ?? 'the activation'}
              canDownload={canDownload === true}
              compact
            />
          </Stack>
        )}
      </aside>
    </ScrollArea>
  );
}
