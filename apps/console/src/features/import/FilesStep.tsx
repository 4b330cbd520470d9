import { ActionIcon, Alert, Badge, Button, FileButton, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { IconFileImport, IconTrash } from '@tabler/icons-react';
import { type DragEvent, useState } from 'react';
import { DelimitedSettings } from './DelimitedSettings';
import { checkFileSize } from './model/sizeLimits';
import type { FileKind, TextEncoding } from './model/types';
import { useWizard, type WizardFile } from './wizardStore';

const KINDS: { value: FileKind; label: string }[] = [
  { value: 'csv', label: 'CSV' },
  { value: 'tsv', label: 'TSV' },
  { value: 'json', label: 'JSON array' },
  { value: 'jsonl', label: 'JSON Lines' },
  { value: 'msgpack', label: 'msgpack.gz part' },
];
const ENCODINGS: { value: TextEncoding; label: string }[] = [
  { value: 'utf-8', label: 'UTF-8' },
  { value: 'windows-1252', label: 'Windows-1252 (Latin-1)' },
  { value: 'utf-16le', label: 'UTF-16 LE' },
  { value: 'utf-16be', label: 'UTF-16 BE' },
];
const ACCEPT = '.csv,.tsv,.tab,.txt,.json,.jsonl,.ndjson,.gz';

const megabytes = (n: number) => (n < 1024 * 1024 ? `${Math.ceil(n / 1024)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/** How far the whole-file scan of a file is, or what it found. */
function scanText(entry: WizardFile): string | null {
  if (entry.profile) {
    const { rows, fields } = entry.profile;
    return `${rows.toLocaleString('en-US')} rows, ${fields.length} keys`;
  }
  if (entry.scan) {
    return `reading every row: ${Math.floor((entry.scan.bytesDone / Math.max(1, entry.scan.bytesTotal)) * 100)} %`;
  }
  return null;
}

function FileRow({ entry }: { entry: WizardFile }) {
  const setOverrides = useWizard((s) => s.setOverrides);
  const removeFile = useWizard((s) => s.removeFile);
  const a = entry.analysis;
  const name = entry.file.name;
  const delimited = a?.settings.kind === 'csv' || a?.settings.kind === 'tsv';
  const textual = a && a.settings.kind !== 'msgpack';
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={500} size="sm">
          {name}
        </Text>
        <Text size="xs" c="dimmed">
          {megabytes(entry.file.size)}
          {a && a.settings.kind !== 'msgpack' ? ` · ${scanText(entry) ?? `${a.columns.length} columns`}` : ''}
        </Text>
      </Table.Td>
      <Table.Td>
        {a ? (
          <Select
            aria-label={`File type of ${name}`}
            size="xs"
            data={KINDS}
            value={a.settings.kind}
            allowDeselect={false}
            onChange={(v) => v && setOverrides(entry.id, { kind: v as FileKind })}
          />
        ) : (
          <Badge variant="light">Reading…</Badge>
        )}
      </Table.Td>
      <Table.Td>
        {textual && (
          <Select
            aria-label={`Encoding of ${name}`}
            size="xs"
            data={ENCODINGS}
            value={a.settings.encoding}
            allowDeselect={false}
            onChange={(v) => v && setOverrides(entry.id, { encoding: v as TextEncoding })}
          />
        )}
      </Table.Td>
      <Table.Td>
        {delimited && (
          <DelimitedSettings name={name} settings={a.settings} onChange={(o) => setOverrides(entry.id, o)} />
        )}
      </Table.Td>
      <Table.Td>
        <ActionIcon variant="subtle" color="gray" aria-label={`Remove ${name}`} onClick={() => removeFile(entry.id)}>
          <IconTrash size={16} />
        </ActionIcon>
      </Table.Td>
    </Table.Tr>
  );
}

function FileWarnings({ entry }: { entry: WizardFile }) {
  const a = entry.analysis;
  if (!a) return null;
  const name = entry.file.name;
  const size = checkFileSize(name, entry.file.size, a.settings.kind);
  return (
    <>
      {size.level !== 'ok' && (
        <Alert color={size.level === 'refuse' ? 'red' : 'orange'} title={`${name} is large`}>
          {size.message}
        </Alert>
      )}
      {a.error && (
        <Alert color="red" title={`${name} cannot be read`}>
          {a.error}
        </Alert>
      )}
      {entry.scanError && (
        <Alert color="red" title={`${name} could not be read to the end`}>
          {entry.scanError}
        </Alert>
      )}
      {a.invalid > 0 && (
        <Alert color="orange" title={`${name} is not valid ${a.settings.encoding.toUpperCase()}`}>
          {a.invalid} byte sequence{a.invalid === 1 ? '' : 's'} could not be read (first on line {a.firstInvalidLine});
          they would be imported as “�”. The file is probably in another encoding: try Windows-1252 above.
        </Alert>
      )}
      {a.bom && (
        <Text size="xs" c="dimmed">
          {name} starts with a byte order mark; it is removed, so the first column name stays clean.
        </Text>
      )}
      {a.ragged.length > 0 && (
        <Text size="xs" c="orange">
          In {name}, rows {a.ragged.join(', ')} have a different number of fields than the first row; missing fields are
          left empty. Check the delimiter if this looks wrong.
        </Text>
      )}
    </>
  );
}

/** The files step; `dragging`: files are dragged over the window and a drop anywhere would add them. */
export function FilesStep({ dragging = false }: { dragging?: boolean }) {
  const files = useWizard((s) => s.files);
  const addFiles = useWizard((s) => s.addFiles);
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent) => {
    // Taken here (the window's handler sees it prevented and only ends its highlight).
    event.preventDefault();
    setOver(false);
    addFiles(Array.from(event.dataTransfer.files));
  };
  return (
    <Stack>
      <Paper
        withBorder
        radius="md"
        p="xl"
        data-testid="wizard-drop-area"
        data-highlighted={over || dragging || undefined}
        bg={over || dragging ? 'var(--mantine-color-blue-light)' : undefined}
        style={{
          borderStyle: 'dashed',
          borderColor: over || dragging ? 'var(--mantine-color-blue-filled)' : undefined,
        }}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <Stack align="center" gap="xs">
          <IconFileImport size={40} stroke={1.5} aria-hidden />
          <Text fw={600}>Drop files here</Text>
          <Text size="sm" c="dimmed" ta="center">
            CSV, TSV, JSON (an array of objects), JSON Lines, or ready-made .msgpack.gz parts. Several files are
            imported together.
          </Text>
          <FileButton onChange={(picked) => addFiles(picked)} accept={ACCEPT} multiple>
            {(props) => (
              <Button variant="default" {...props}>
                Choose files
              </Button>
            )}
          </FileButton>
        </Stack>
      </Paper>
      {files.length > 0 && (
        <Table aria-label="Files to import" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>File</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Encoding</Table.Th>
              <Table.Th>Delimiter and header</Table.Th>
              <Table.Th aria-label="Actions" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {files.map((f) => (
              <FileRow key={f.id} entry={f} />
            ))}
          </Table.Tbody>
        </Table>
      )}
      {files.map((f) => (
        <FileWarnings key={f.id} entry={f} />
      ))}
    </Stack>
  );
}
