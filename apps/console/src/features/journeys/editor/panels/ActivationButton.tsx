import { Alert, Button } from '@mantine/core';
import { useEnvironment } from '../EditorContext';
import { activationOffer } from '../model/activationOffer';

export interface ActivationButtonProps {
  stageIndex: number;
  stepId: string;
  linkedId: string | null;
}

/** Create or edit the activation a step triggers, as far as the journey's state allows (`activationOffer`). */
export function ActivationButton({ stageIndex, stepId, linkedId }: ActivationButtonProps) {
  const { activations, activationsKnown, openActivation, launchedJourneyId } = useEnvironment();
  if (!openActivation) return null;
  const offer = activationOffer({
    linkedId,
    activations: activationsKnown === false ? null : activations,
    launched: launchedJourneyId !== undefined,
  });
  if (offer.kind === 'unavailable') {
    return (
      <Alert mt="sm" color="orange" title="No activation can be linked">
        {offer.reason}
      </Alert>
    );
  }
  return (
    <Button
      mt="sm"
      fullWidth
      variant="light"
      loading={offer.kind === 'loading'}
      onClick={() => openActivation(stageIndex, stepId)}
    >
      {offer.kind === 'edit' ? 'Edit activation' : 'Create activation'}
    </Button>
  );
}
