import { Autocomplete, Button, Group, MultiSelect } from '@mantine/core';
import { AUDIT_ACTIONS, type AuditAction, type AuditFilter } from '@svc/contracts';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { IsoDateField } from '../../components/IsoDateField';
import { usersQueryOptions } from '../users';
import { auditCsvUrl } from './api';

export interface AuditFiltersProps {
  filter: AuditFilter;
  onChange: (filter: AuditFilter) => void;
}

const ACTION_GROUPS = Object.entries(AUDIT_ACTIONS).map(([group, actions]) => ({
  group,
  items: Object.entries(actions).map(([value, label]) => ({ value, label: `${label} (${value})` })),
}));

/** The fields speak the viewer's local time, "2026-03-31 14:30"; the API takes ISO instants. */
const toIso = (local: string) => (local ? new Date(local.replace(' ', 'T')).toISOString() : undefined);
const toLocal = (iso: string | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16).replace('T', ' ');
};

/** Who, what and when: the log's filters, and the CSV export of what they match. */
export function AuditFilters({ filter, onChange }: AuditFiltersProps) {
  const users = useQuery(usersQueryOptions());
  // The actor is matched exactly: it applies once chosen, entered or left, not at every keystroke.
  const [actor, setActor] = useState(filter.actor ?? '');
  useEffect(() => setActor(filter.actor ?? ''), [filter.actor]);
  const set = (change: Partial<AuditFilter>) => {
    const next: AuditFilter = { ...filter, ...change };
    for (const k of Object.keys(next) as (keyof AuditFilter)[]) {
      const v = next[k];
      if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) delete next[k];
    }
    onChange(next);
  };
  return (
    <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
      <Autocomplete
        label="Who"
        placeholder="E-mail or address"
        data={(users.data ?? []).map((u) => u.email)}
        value={actor}
        onChange={setActor}
        onOptionSubmit={(value) => set({ actor: value })}
        onBlur={() => set({ actor: actor.trim() })}
        onKeyDown={(e) => {
          if (e.key === 'Enter') set({ actor: actor.trim() });
        }}
        w={240}
      />
      <MultiSelect
        label="Actions"
        placeholder={filter.action?.length ? undefined : 'Every action'}
        data={ACTION_GROUPS}
        value={filter.action ?? []}
        onChange={(action) => set({ action: action as AuditAction[] })}
        searchable
        clearable
        w={340}
      />
      <IsoDateField label="From" withTime value={toLocal(filter.from)} onCommit={(t) => set({ from: toIso(t) })} />
      <IsoDateField label="Until" withTime value={toLocal(filter.to)} onCommit={(t) => set({ to: toIso(t) })} />
      <Button variant="default" onClick={() => onChange({})} disabled={Object.keys(filter).length === 0}>
        Clear filters
      </Button>
      <Button component="a" href={auditCsvUrl(filter)} download leftSection={<IconDownload size={16} />}>
        Export CSV
      </Button>
    </Group>
  );
}
