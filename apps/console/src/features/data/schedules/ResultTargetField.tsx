import { Autocomplete, Checkbox, Group, Select, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { connectionsQueryOptions, databasesQueryOptions, tablesQueryOptions } from '../../../lib/resources';

/**
 * Where a scheduled query's result goes, as the server's one `result` text: nowhere; a table chosen from the
 * account's databases (`td://@/<database>/<table>`, `?mode=replace` to replace its rows); a saved result
 * connection by name; or a webhook URL. The server checks the target; its refusal shows here (`error`).
 */

type Kind = 'none' | 'table' | 'connection' | 'url';

const KINDS = [
  { value: 'none', label: 'Nowhere (keep the result with the job)' },
  { value: 'table', label: 'To a table' },
  { value: 'connection', label: 'To a result connection' },
  { value: 'url', label: 'To a webhook URL' },
];

const TABLE_URL = /^td:\/\/[^/?#]*\/([^/?#]+)\/([^/?#]*)\/?(?:\?(.*))?$/i;

interface Parts {
  kind: Kind;
  database: string;
  table: string;
  replace: boolean;
  connection: string;
  url: string;
}

function partsOf(value: string, database: string): Parts {
  const parts: Parts = { kind: 'none', database, table: '', replace: false, connection: '', url: '' };
  const v = value.trim();
  if (v === '') return parts;
  const table = TABLE_URL.exec(v);
  if (table) {
    return {
      ...parts,
      kind: 'table',
      database: decodeURIComponent(table[1] ?? ''),
      table: decodeURIComponent(table[2] ?? ''),
      replace: new URLSearchParams(table[3] ?? '').get('mode') === 'replace',
    };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(v)) return { ...parts, kind: 'url', url: v };
  return { ...parts, kind: 'connection', connection: v };
}

function resultText(p: Parts): string {
  switch (p.kind) {
    case 'table':
      return `td://@/${encodeURIComponent(p.database)}/${encodeURIComponent(p.table.trim())}${p.replace ? '?mode=replace' : ''}`;
    case 'connection':
      return p.connection;
    case 'url':
      return p.url.trim();
    default:
      return '';
  }
}

export interface ResultTargetFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** The database a new table target starts in (the query's). */
  database: string;
  error?: string | undefined;
}

export function ResultTargetField({ value, onChange, database, error }: ResultTargetFieldProps) {
  const [parts, setParts] = useState(() => partsOf(value, database));
  const databases = useQuery({ ...databasesQueryOptions(), enabled: parts.kind === 'table' });
  const tables = useQuery({
    ...tablesQueryOptions(parts.database),
    enabled: parts.kind === 'table' && parts.database !== '',
  });
  const connections = useQuery({ ...connectionsQueryOptions(), enabled: parts.kind === 'connection' });
  const change = (next: Partial<Parts>) => {
    const p = { ...parts, ...next };
    setParts(p);
    onChange(resultText(p));
  };
  const noConnections = connections.data?.length === 0;
  return (
    <Stack gap="xs">
      <Select
        label="Write the result"
        data={KINDS}
        value={parts.kind}
        onChange={(v) => change({ kind: (v ?? 'none') as Kind })}
        allowDeselect={false}
        error={parts.kind === 'none' ? error : undefined}
      />
      {parts.kind === 'table' && (
        <>
          <Group grow align="flex-start">
            <Select
              label="Result database"
              data={(databases.data ?? []).map((d) => d.name)}
              value={parts.database}
              onChange={(v) => change({ database: v ?? database })}
              searchable
              allowDeselect={false}
            />
            <Autocomplete
              label="Result table"
              description="An existing table, or a new name: it is made at the first run"
              data={(tables.data ?? []).map((t) => t.name)}
              value={parts.table}
              onChange={(table) => change({ table })}
              error={error}
            />
          </Group>
          <Checkbox
            label="Replace the table's rows at each run (else append)"
            checked={parts.replace}
            onChange={(e) => change({ replace: e.currentTarget.checked })}
          />
        </>
      )}
      {parts.kind === 'connection' && (
        <Select
          label="Result connection"
          description={noConnections ? 'No result connection yet: add one under Connections.' : undefined}
          data={(connections.data ?? []).map((c) => ({ value: c.name, label: `${c.name} (${c.url})` }))}
          value={parts.connection === '' ? null : parts.connection}
          onChange={(v) => change({ connection: v ?? '' })}
          searchable
          error={error}
        />
      )}
      {parts.kind === 'url' && (
        <TextInput
          label="Webhook URL"
          description="The rows are POSTed as JSON batches after each successful run"
          placeholder="https://"
          value={parts.url}
          onChange={(e) => change({ url: e.currentTarget.value })}
          error={error}
        />
      )}
    </Stack>
  );
}
