import { Alert, Button, Group, Paper, Stepper, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { countOf } from '../../../lib/words';
import { useCreateParentSegment } from '../api';
import { AttributesStep } from './AttributesStep';
import { BehaviorsStep } from './BehaviorsStep';
import { MasterStep } from './MasterStep';
import { emptyWizard, stepProblem, toInput } from './wizardState';

/** The create wizard: master table and key, attributes, behaviors, then one POST /audiences. */
export function CreateParentSegmentPage() {
  const [state, setState] = useState(emptyWizard);
  const [step, setStep] = useState(0);
  // Problems show once the user tries to go on, and then follow their edits.
  const [tried, setTried] = useState(false);
  const create = useCreateParentSegment();
  const navigate = useNavigate();
  const problem = stepProblem(state, step);

  const next = () => {
    setTried(problem !== null);
    if (problem === null) setStep(step + 1);
  };
  const submit = () =>
    create.mutate(toInput(state), {
      onSuccess: (saved) => {
        notifications.show({ color: 'teal', message: `The parent segment ${saved.name} was created.` });
        void navigate(`/parent-segments/${saved.id}`);
      },
    });

  return (
    <>
      <PageHeader
        title="Create parent segment"
        description="Profiles come from a master table; attributes and behaviors describe them."
      />
      <Paper withBorder radius="md" p="lg">
        <Stepper active={step} onStepClick={(s) => s < step && setStep(s)} size="sm">
          <Stepper.Step label="Master table">
            <MasterStep state={state} onChange={setState} />
          </Stepper.Step>
          <Stepper.Step label="Attributes">
            <AttributesStep state={state} onChange={setState} />
          </Stepper.Step>
          <Stepper.Step label="Behaviors">
            <BehaviorsStep state={state} onChange={setState} />
          </Stepper.Step>
          <Stepper.Completed>
            <Text>
              <strong>{state.name}</strong> from {state.database}.{state.table}, keyed by {state.parentKey}, with{' '}
              {countOf(state.attributes.length, 'attribute')} and {countOf(state.behaviors.length, 'behavior')}.
              Creating it starts the first build of its profiles.
            </Text>
            {create.isError && (
              <Alert color="red" title="The parent segment was not created" mt="md">
                {create.error.message}
              </Alert>
            )}
          </Stepper.Completed>
        </Stepper>
        {tried && problem && (
          <Alert color="yellow" mt="md" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end" mt="xl">
          {step > 0 && (
            <Button variant="default" onClick={() => setStep(step - 1)}>
              Back
            </Button>
          )}
          {step < 3 ? (
            <Button onClick={next}>Next</Button>
          ) : (
            <Button loading={create.isPending} onClick={submit}>
              Create parent segment
            </Button>
          )}
        </Group>
      </Paper>
    </>
  );
}
