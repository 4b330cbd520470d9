import { Alert, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { QueryError } from '../../../components/QueryError';
import { countOf } from '../../../lib/words';
import { handoverQuery } from './engineQueries';

/**
 * In the launch dialog of a draft version: the journey it replaces and what happens to that journey's
 * profiles, counted by the server with the same rule the launch applies.
 */
export function HandoverSummary({ journeyId }: { journeyId: string }) {
  const handover = useQuery(handoverQuery(journeyId));
  if (handover.isPending) {
    return (
      <Text size="sm" c="dimmed">
        <Loader size="xs" mr={6} />
        Counting the profiles this version takes over…
      </Text>
    );
  }
  if (handover.error) return <QueryError title="No count of the profiles taken over" error={handover.error} />;
  const h = handover.data;
  if (!h) return null;
  return (
    <Alert color="blue" p="xs" title={`Replaces “${h.replaces.name}”`} role="region">
      <Text size="sm">
        <strong data-testid="handover-keep">{h.keep.toLocaleString('en')}</strong>{' '}
        {h.keep === 1 ? 'profile keeps its' : 'profiles keep their'} place;{' '}
        <strong data-testid="handover-leave">{h.leave.toLocaleString('en')}</strong>{' '}
        {h.leave === 1 ? 'leaves' : 'leave'} the journey (their step or stage changed).
        {h.alreadyLeft > 0 ? ` ${countOf(h.alreadyLeft, 'profile')} that had left stay left.` : ''}
      </Text>
      <Text size="xs" c="dimmed" mt={4}>
        {h.rule}
      </Text>
    </Alert>
  );
}
