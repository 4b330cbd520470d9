import { Alert, Button, Grid, Group, NativeSelect, Paper, Stack, Textarea, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { ParentSegment, Segment } from '@svc/contracts';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { BlockedAction } from '../../../components/BlockedAction';
import { PageHeader } from '../../../components/PageHeader';
import { FolderAccessNote, folderBlocker, useFolderAccess } from '../../folder-permissions';
import { useDeleteSegment, useSaveSegment } from '../api';
import { compileRule, type DraftGroup, draftRule, IncompleteRule, newGroup } from '../rules/draft';
import { appendTo, removeNode, updateNode } from '../rules/tree';
import { type Builder, BuilderContext } from './builderContext';
import { GroupEditor } from './GroupEditor';
import { PopulationPanel } from './PopulationPanel';

export interface SegmentEditorProps {
  record: ParentSegment;
  /** null for a new segment. */
  segment: Segment | null;
  otherSegments: Segment[];
  folders: { value: string; label: string }[];
  initialFolderId: string;
}

/** Name, folder and rule of one segment, with the live population beside the rule. */
export function SegmentEditor({ record, segment, otherSegments, folders, initialFolderId }: SegmentEditorProps) {
  const [name, setName] = useState(segment?.name ?? '');
  const [description, setDescription] = useState(segment?.description ?? '');
  const [folderId, setFolderId] = useState(initialFolderId);
  const [draft, setDraft] = useState<DraftGroup>(() => (segment ? draftRule(segment.rule) : newGroup()));
  // Missing parts are pointed out once the user tries to save, then follow their edits.
  const [tried, setTried] = useState(false);
  const nameMissing = tried && name.trim() === '';
  const save = useSaveSegment(record.id, segment?.id);
  const remove = useDeleteSegment(record.id);
  const navigate = useNavigate();
  // What the user may do is known before they start: Save and Delete say why they are disabled.
  const folderName = (id: string) => folders.find((f) => f.value === id)?.label.trim() ?? 'this folder';
  const accessIn = useFolderAccess([...new Set([folderId, segment?.folderId ?? folderId])]);
  const saveBlocker =
    folderBlocker(accessIn(folderId), folderName(folderId), 'save segments in it') ??
    (segment && segment.folderId !== folderId
      ? folderBlocker(accessIn(segment.folderId), folderName(segment.folderId), 'move segments out of it')
      : null);
  const deleteBlocker = segment
    ? folderBlocker(accessIn(segment.folderId), folderName(segment.folderId), 'delete segments in it')
    : null;

  const builder = useMemo<Builder>(
    () => ({
      attributes: record.attributes.map((a) => ({ name: a.name, type: a.type })),
      behaviors: record.behaviors,
      segments: otherSegments,
      update: (key, fn) => setDraft((d) => updateNode(d, key, fn)),
      remove: (key) => setDraft((d) => removeNode(d, key)),
      append: (groupKey, node) => setDraft((d) => appendTo(d, groupKey, node)),
    }),
    [record, otherSegments],
  );

  const timestamps = useMemo(
    () => new Set(record.attributes.filter((a) => a.type === 'timestamp').map((a) => a.name)),
    [record],
  );
  const compiled = useMemo(() => {
    const attributeTypes = new Map(record.attributes.map((a) => [a.name, a.type]));
    const behaviorTypes = (behavior: string) => {
      const columns = new Map(record.behaviors.find((b) => b.name === behavior)?.schema.map((c) => [c.name, c.type]));
      return (column: string) => columns.get(column);
    };
    try {
      return compileRule(draft, (n) => attributeTypes.get(n), behaviorTypes);
    } catch (e) {
      if (e instanceof IncompleteRule) return { incomplete: e.message };
      throw e;
    }
  }, [draft, record]);

  const submit = () => {
    setTried(true);
    if (name.trim() === '' || 'incomplete' in compiled) return;
    save.mutate(
      { name: name.trim(), description: description.trim() || null, folderId, rule: compiled },
      {
        onSuccess: (saved) => {
          notifications.show({ color: 'teal', message: `The segment ${saved.name} was saved.` });
          if (!segment) void navigate(`/parent-segments/${record.id}/segments/${saved.id}`, { replace: true });
        },
      },
    );
  };
  const confirmDelete = (s: Segment) =>
    modals.openConfirmModal({
      title: 'Delete segment',
      children: `Delete the segment ${s.name}?`,
      labels: { confirm: 'Delete segment', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(s.id, {
          onSuccess: () => void navigate(`/parent-segments/${record.id}`),
          onError: (e) => notifications.show({ color: 'red', title: `${s.name} was not deleted`, message: e.message }),
        }),
    });

  return (
    <>
      <PageHeader
        title={segment ? `Segment ${segment.name}` : 'New segment'}
        description={`Profiles of ${record.name} that match the rule.`}
        action={
          <Group>
            {segment && (
              <BlockedAction reason={deleteBlocker}>
                <Button variant="default" color="red" onClick={() => confirmDelete(segment)}>
                  Delete
                </Button>
              </BlockedAction>
            )}
            <BlockedAction reason={saveBlocker}>
              <Button loading={save.isPending} onClick={submit}>
                Save segment
              </Button>
            </BlockedAction>
          </Group>
        }
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="lg">
            <FolderAccessNote folderId={folderId} folderName={folderName(folderId)} work="save segments in it" />
            {save.isError && (
              <Alert color="red" title="The segment was not saved">
                {save.error.message}
              </Alert>
            )}
            {tried && 'incomplete' in compiled && <Alert color="yellow">{compiled.incomplete}</Alert>}
            <Paper withBorder radius="md" p="md">
              <Group align="flex-start" grow>
                <TextInput
                  label="Segment name"
                  required
                  value={name}
                  error={nameMissing ? 'Give the segment a name.' : undefined}
                  onChange={(e) => setName(e.currentTarget.value)}
                />
                <NativeSelect
                  label="Folder"
                  data={folders}
                  value={folderId}
                  onChange={(e) => setFolderId(e.currentTarget.value)}
                />
              </Group>
              <Textarea
                label="Description"
                mt="sm"
                autosize
                minRows={1}
                value={description}
                onChange={(e) => setDescription(e.currentTarget.value)}
              />
            </Paper>
            <Paper withBorder radius="md" p="md">
              <BuilderContext.Provider value={builder}>
                <GroupEditor group={draft} label="Rule" columns={builder.attributes} allowBehaviors />
              </BuilderContext.Provider>
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }} miw={0}>
          <PopulationPanel
            audienceId={record.id}
            builtAt={record.matrixUpdatedAt}
            timestamps={timestamps}
            rule={compiled}
          />
        </Grid.Col>
      </Grid>
    </>
  );
}
