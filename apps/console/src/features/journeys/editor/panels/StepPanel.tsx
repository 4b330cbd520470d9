import { Button, Divider, NumberInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { Step } from '@svc/journey';
import { stepKinds } from '@svc/journey';
import { IconTrash } from '@tabler/icons-react';
import { useEditor, useEditorStore, useEnvironment, useStepProblems } from '../EditorContext';
import { ABTestForm } from './ABTestForm';
import { ConnectionsSection } from './ConnectionsSection';
import { DecisionForm } from './DecisionForm';
import { ProblemList } from './ProblemList';

export interface StepPanelProps {
  stageIndex: number;
  stepId: string;
}

/** Settings of the selected step, by kind, then its connections and its problems. */
export function StepPanel({ stageIndex, stepId }: StepPanelProps) {
  const step = useEditor((s) => s.journey.journeyStages[stageIndex]?.steps?.[stepId]);
  const store = useEditorStore();
  const problems = useStepProblems(stepId);
  if (!step) return null;
  return (
    <Stack gap="md">
      <Title order={3} size="h4">
        {stepKinds[step.type].label}
      </Title>
      <StepFields stageIndex={stageIndex} stepId={stepId} step={step} />
      <ConnectionsSection stageIndex={stageIndex} stepId={stepId} step={step} />
      {problems.length > 0 && <ProblemList problems={problems} title="Problems of this step" />}
      <Divider />
      <Button
        color="red"
        variant="light"
        leftSection={<IconTrash size={16} />}
        onClick={() => store.getState().dispatch({ type: 'removeSteps', stageIndex, stepIds: [stepId] })}
      >
        Delete step
      </Button>
    </Stack>
  );
}

function StepFields({ stageIndex, stepId, step }: { stageIndex: number; stepId: string; step: Step }) {
  const store = useEditorStore();
  const { activations } = useEnvironment();
  const update = (next: Step, key?: string) =>
    store.getState().dispatch({ type: 'updateStep', stageIndex, stepId, step: next }, key ? { coalesceKey: key } : {});
  const nameField = (
    <TextInput
      label="Name"
      value={step.name ?? ''}
      onChange={(e) => update({ ...step, name: e.currentTarget.value }, `${stepId}.name`)}
    />
  );
  switch (step.type) {
    case 'DecisionPoint':
      return <DecisionForm stageIndex={stageIndex} stepId={stepId} step={step} />;
    case 'ABTest':
      return <ABTestForm stageIndex={stageIndex} stepId={stepId} step={step} />;
    case 'WaitStep':
      return (
        <Stack gap="sm">
          {nameField}
          <NumberInput
            label="Wait length (days)"
            description="Time while the journey is paused does not count."
            min={1}
            allowDecimal={false}
            value={step.waitStep}
            onChange={(value) => update({ ...step, waitStep: typeof value === 'number' ? value : 0 }, `${stepId}.wait`)}
          />
        </Stack>
      );
    case 'Activation': {
      const known = activations.some((a) => a.id === step.journeyActivationStepId);
      const data = activations.map((a) => ({ value: a.id, label: a.name }));
      if (step.journeyActivationStepId && !known) {
        data.push({ value: step.journeyActivationStepId, label: `Unknown activation ${step.journeyActivationStepId}` });
      }
      return (
        <Stack gap="sm">
          {nameField}
          <TextInput
            label="Description"
            value={step.description ?? ''}
            onChange={(e) => update({ ...step, description: e.currentTarget.value }, `${stepId}.description`)}
          />
          <Select
            label="Activation it triggers"
            data={data}
            value={step.journeyActivationStepId}
            clearable
            onChange={(value) => update({ ...step, journeyActivationStepId: value })}
            comboboxProps={{ withinPortal: true }}
          />
        </Stack>
      );
    }
    case 'Merge':
      return (
        <Stack gap="sm">
          {nameField}
          <Text size="sm" c="dimmed">
            Paths that lead here continue as one. Lead a path here with its "Leads to" setting.
          </Text>
        </Stack>
      );
    case 'End':
      return (
        <Stack gap="sm">
          {nameField}
          <Text size="sm" c="dimmed">
            Profiles stay here until they reach the milestone or an exit criterion of the stage.
          </Text>
        </Stack>
      );
  }
}
