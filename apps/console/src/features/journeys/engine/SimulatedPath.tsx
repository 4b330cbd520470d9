import { Badge, Group, Paper, Text, Timeline, Title } from '@mantine/core';
import type { SimulatedProfile } from '@svc/contracts';
import { InlineTime } from '../../../components/Timestamp';
import type { JourneyIndex } from './journeyIndex';
import { stoppedText, withNames } from './simulationText';

export interface SimulatedPathProps {
  profile: SimulatedProfile;
  index: JourneyIndex;
  names: { segment(id: string): string | undefined; activation(id: string): string | undefined };
}

/** One profile's simulated path: each event with its time and reason, then where it ends up. */
export function SimulatedPath({ profile, index, names }: SimulatedPathProps) {
  const position = profile.position;
  const where = position
    ? position.status === 'left'
      ? `Left the journey from ${index.stageLabel(position.stageId)}`
      : `${index.stageLabel(position.stageId)} › ${position.stepId ? index.stepLabel(position.stepId) : 'stage start'}`
    : 'Not in the journey';
  return (
    <Paper withBorder radius="md" p="md" component="article" aria-label={`Simulated path of ${profile.profileKey}`}>
      <Group justify="space-between" align="flex-start" mb="sm">
        <div>
          <Title order={3} size="h5">
            Profile {profile.profileKey}
          </Title>
          <Text size="sm" c="dimmed">
            {profile.startedInJourney
              ? 'Already in the journey; continues from where it is.'
              : 'Not in the journey yet.'}
          </Text>
        </div>
        <Badge variant="light" color={position?.status === 'left' ? 'gray' : 'blue'} tt="none" size="lg">
          Ends at: {where}
        </Badge>
      </Group>
      {profile.steps.length === 0 ? (
        <Text size="sm">Nothing changes in this period.</Text>
      ) : (
        <Timeline bulletSize={14} lineWidth={2} active={profile.steps.length - 1}>
          {profile.steps.map((step, i) => (
            <Timeline.Item
              // Events have no id; their order is their identity within one answer.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={i}
              title={withNames(step.explanation, names)}
            >
              <Text size="xs" c="dimmed">
                <InlineTime value={step.at} />
                {step.stageId ? ` · ${index.stageLabel(step.stageId)}` : ''}
                {step.stepId ? ` › ${index.stepLabel(step.stepId)}` : ''}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      )}
      <Text size="sm" mt="sm" fw={500}>
        {stoppedText(profile)}
      </Text>
    </Paper>
  );
}
