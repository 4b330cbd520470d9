import { Badge, Group, Pagination, Select, Stack, Table, Text } from '@mantine/core';
import { type JourneyCustomer, type JourneyCustomerStatus, journeyCustomerStatus } from '@svc/contracts';
import type { Journey } from '@svc/journey';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { QueryError } from '../../../components/QueryError';
import { InlineTime, Timestamp } from '../../../components/Timestamp';
import type { CustomerFilter } from '../api';
import { customersQuery } from './engineQueries';
import { type JourneyIndex, journeyIndex } from './journeyIndex';
import { filterKey, type PageCursors, pageRequest, withNext } from './profilePages';

export interface ProfilesViewProps {
  journeyId: string;
  journey: Journey;
  filter: CustomerFilter;
  onFilter(patch: Partial<CustomerFilter>): void;
}

const STATUS_OPTIONS: Array<{ value: JourneyCustomerStatus; label: string }> = [
  { value: 'active', label: 'In the journey' },
  { value: 'left', label: 'Left the journey' },
  { value: 'all', label: 'All' },
];

const LEFT_REASONS: Record<string, string> = {
  goal: 'reached the goal',
  exit_segment: 'exit criterion (segment)',
  exit_after: 'exit criterion (time in stage)',
  milestone: 'milestone of the last stage',
  completed: 'journey complete',
  version_changed: 'a new version changed its step',
};

/** Parses the status filter from the URL; anything else means the default (still in the journey). */
export function statusOf(value: string | undefined): JourneyCustomerStatus {
  const parsed = journeyCustomerStatus.safeParse(value);
  return parsed.success ? parsed.data : 'active';
}

/** The profiles in the journey: where each is, since when, which paths and variants it took. */
export function ProfilesView({ journeyId, journey, filter, onFilter }: ProfilesViewProps) {
  const [cursors, setCursors] = useState<PageCursors>(() => ({ filter: filterKey(filter), after: new Map() }));
  const customers = useQuery(customersQuery(journeyId, filter, pageRequest(filter, cursors).after));
  const next = customers.isPlaceholderData ? undefined : customers.data?.meta.next;
  useEffect(() => {
    if (next !== undefined) setCursors((known) => withNext(known, filter, next));
  }, [next, filter]);
  const index = useMemo(() => journeyIndex(journey), [journey]);
  const stepOptions = index.steps
    .filter((s) => !filter.stage || s.stageId === filter.stage)
    .map((s) => ({
      value: s.id,
      label: filter.stage ? `${s.label} (${s.kind})` : `${index.stageLabel(s.stageId)} › ${s.label}`,
    }));
  const total = customers.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / filter.perPage));
  const first = (filter.page - 1) * filter.perPage + 1;
  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm">
        <Select
          label="Stage"
          placeholder="All stages"
          clearable
          data={index.stages.map((s) => ({ value: s.id, label: s.label }))}
          value={filter.stage ?? null}
          onChange={(stage) => onFilter({ stage: stage ?? undefined, step: undefined, page: 1 })}
          w={240}
        />
        <Select
          label="Step"
          placeholder="All steps"
          clearable
          searchable
          data={stepOptions}
          value={filter.step ?? null}
          onChange={(step) => onFilter({ step: step ?? undefined, page: 1 })}
          w={320}
        />
        <Select
          label="Status"
          data={STATUS_OPTIONS}
          value={filter.status}
          allowDeselect={false}
          onChange={(status) => onFilter({ status: statusOf(status ?? undefined), page: 1 })}
          w={180}
        />
        <Select
          label="Per page"
          data={['20', '50', '100']}
          value={String(filter.perPage)}
          allowDeselect={false}
          onChange={(value) => onFilter({ perPage: Number(value ?? 50), page: 1 })}
          w={100}
        />
      </Group>
      {customers.isPending ? (
        <CenteredLoader label="Loading the profiles" />
      ) : customers.error ? (
        <QueryError
          title="The profiles could not be loaded"
          error={customers.error}
          onRetry={() => void customers.refetch()}
        />
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {total === 0
              ? 'No profiles match these filters.'
              : `${first.toLocaleString('en')}–${Math.min(total, first + filter.perPage - 1).toLocaleString('en')} of ${total.toLocaleString('en')} profiles`}
          </Text>
          <Table.ScrollContainer minWidth={1000}>
            <Table striped highlightOnHover verticalSpacing={6} aria-label="Profiles in the journey">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Profile</Table.Th>
                  <Table.Th>Stage</Table.Th>
                  <Table.Th>Step</Table.Th>
                  <Table.Th>Entered the journey</Table.Th>
                  <Table.Th>Since (at the step, or left)</Table.Th>
                  <Table.Th>Paths and variants</Table.Th>
                  <Table.Th ta="right">Entries</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {customers.data.data.map((c) => (
                  <ProfileRow key={c.profileKey} customer={c} index={index} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 && (
            <Pagination
              total={pages}
              value={filter.page}
              onChange={(page) => onFilter({ page })}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          )}
        </>
      )}
    </Stack>
  );
}

function ProfileRow({ customer: c, index }: { customer: JourneyCustomer; index: JourneyIndex }) {
  const left = c.status === 'left';
  return (
    <Table.Tr>
      <Table.Td fw={600}>{c.profileKey}</Table.Td>
      <Table.Td>{index.stageLabel(c.stageId)}</Table.Td>
      <Table.Td>
        {left ? (
          <Badge color="gray" variant="light">
            Left: {LEFT_REASONS[c.leftReason ?? ''] ?? c.leftReason ?? 'unknown'}
          </Badge>
        ) : (
          <>
            <Text size="sm">{c.stepId ? index.stepLabel(c.stepId) : 'Stage start'}</Text>
            {c.held && (
              <Badge color="orange" variant="light" size="sm">
                held: no path matches
              </Badge>
            )}
            {c.waitingUntil && (
              <Text size="xs" c="dimmed">
                waits until <InlineTime value={c.waitingUntil} />
              </Text>
            )}
          </>
        )}
      </Table.Td>
      <Table.Td>
        <Timestamp value={c.journeyEnteredAt} />
      </Table.Td>
      <Table.Td>
        <Timestamp value={left ? c.leftAt : c.stepEnteredAt} />
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          {c.branches.map((b) => (
            <Badge key={`${b.stepId}-${b.branchId}`} variant="light" color="violet" tt="none">
              {index.pathLabel(b.branchId)}
            </Badge>
          ))}
          {c.variants.map((v) => (
            <Badge key={`${v.stepId}-${v.variantId}`} variant="light" color="pink" tt="none">
              {index.pathLabel(v.variantId)}
              {v.control ? ' (control)' : ''}
            </Badge>
          ))}
          {c.branches.length === 0 && c.variants.length === 0 && (
            <Text size="sm" c="dimmed">
              —
            </Text>
          )}
        </Group>
      </Table.Td>
      <Table.Td ta="right">{c.entries}</Table.Td>
    </Table.Tr>
  );
}
