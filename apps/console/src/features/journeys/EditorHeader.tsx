import { Alert, Anchor, Badge, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Journey } from '@svc/journey';
import { IconArrowsMaximize, IconArrowsMinimize } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useBlocker, useNavigate } from 'react-router';
import { useStore } from 'zustand';
import { type JourneyAnswer, useDuplicateJourney, useJourneyLifecycle, useSaveJourney } from './api';
import { type EditorStore, isDirty } from './editor/model/editorStore';
import { useWorkspace } from './editor/workspace';
import { HandoverSummary } from './engine/HandoverSummary';
import { LaunchEstimate } from './engine/LaunchEstimate';
import { RunNowButton } from './engine/RunNowButton';
import { VersionModal } from './VersionModal';
import { ViewOnlyActions } from './ViewOnlyActions';

export interface EditorHeaderProps {
  journeyId: string;
  answer: JourneyAnswer;
  store: EditorStore;
  canEdit: boolean;
  permissionsKnown: boolean;
  parentName: string | null;
  /** Focus mode: one slim row (no back link, no subtitle). */
  compact?: boolean;
}

/** Title, state, and the life-cycle buttons the caller's permission and the journey's state allow. */
export function EditorHeader({
  journeyId,
  answer,
  store,
  canEdit,
  permissionsKnown,
  parentName,
  compact = false,
}: EditorHeaderProps) {
  const { focus, setFocus } = useWorkspace();
  const attributes = answer.data.attributes;
  const journey = useStore(store, (s) => s.journey);
  const dirty = useStore(store, isDirty);
  const problems = useStore(store, (s) => s.problems);
  const save = useSaveJourney(journeyId);
  const lifecycle = useJourneyLifecycle(journeyId);
  const duplicate = useDuplicateJourney();
  const navigate = useNavigate();
  const [showReasons, setShowReasons] = useState(false);
  const launched = attributes.state === 'launched';
  const versionOf = answer.meta?.versionOf ?? null;
  const replacedBy = answer.meta?.replacedBy ?? null;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const stored = (next: JourneyAnswer) => store.getState().markSaved(next.data.attributes as Journey);
  const failed = (title: string) => (error: Error) =>
    notifications.show({ color: 'red', title, message: error.message });

  const onSave = () =>
    save.mutate(
      { journey },
      {
        onSuccess: (next) => {
          stored(next);
          const left = problems.all.length;
          notifications.show(
            left === 0
              ? { color: 'teal', message: 'The journey was saved.' }
              : {
                  color: 'orange',
                  message: `The draft was saved with ${left === 1 ? 'a problem' : `${left} problems`} to fix before launch.`,
                },
          );
        },
        onError: failed('Not saved'),
      },
    );
  const [launching, setLaunching] = useState(false);
  const onLaunch = () => setLaunching(true);
  const confirmLaunch = () =>
    save.mutate(
      { journey, launch: true },
      {
        onSuccess: (next) => {
          setLaunching(false);
          store.getState().markSaved(next.data.attributes as Journey, { readOnly: true });
          notifications.show({ color: 'teal', message: 'The journey is launched.' });
        },
        onError: failed('Not launched'),
      },
    );
  const copy = (name: string) =>
    duplicate.mutate(
      { id: journeyId, name },
      {
        onSuccess: (made) => {
          notifications.show({ color: 'teal', message: `"${made.data.attributes.name}" was created as a draft.` });
          void navigate(`/journeys/${made.data.id}`);
        },
        onError: failed('Not duplicated'),
      },
    );
  const [versioning, setVersioning] = useState(false);
  const onDuplicate = () => (launched && !replacedBy ? setVersioning(true) : copy(`Copy of ${attributes.name}`));

  const state = launched ? (attributes.paused ? 'Paused' : 'Launched') : 'Draft';
  const stateColor = launched ? (attributes.paused ? 'yellow' : 'teal') : 'gray';
  return (
    <>
      <Group justify="space-between" align={compact ? 'center' : 'flex-start'} wrap="nowrap" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          {!compact && (
            <Anchor component={Link} to="/journeys" size="sm">
              ← Journeys
            </Anchor>
          )}
          <Group gap="xs" wrap="nowrap">
            <Title order={1} size="h3" style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
              {journey.name || 'Unnamed journey'}
            </Title>
            <Badge color={stateColor} variant="light" aria-label={`State: ${state}`} style={{ flexShrink: 0 }}>
              {state}
            </Badge>
            {dirty && (
              <Badge color="orange" variant="outline" style={{ flexShrink: 0 }}>
                Unsaved changes
              </Badge>
            )}
          </Group>
          {!compact && (
            <Text size="xs" c="dimmed">
              {parentName ? `Parent segment: ${parentName}` : ''}
              {permissionsKnown && !canEdit ? ' · You can view this journey but not change it.' : ''}
              {launched && canEdit && !replacedBy ? ' · Launched: only its activations can change.' : ''}
              {versionOf && !launched ? ' · A draft version: launching it replaces journey ' : ''}
              {versionOf && launched ? ' · A new version: the profiles in journey ' : ''}
              {versionOf ? (
                <Anchor component={Link} to={`/journeys/${versionOf}`} size="xs">
                  {versionOf}
                </Anchor>
              ) : null}
              {versionOf && launched
                ? ' at its launch were carried over (they count as "in the journey", not as entered)'
                : ''}
              {replacedBy ? ' · Replaced by journey ' : ''}
              {replacedBy ? (
                <Anchor component={Link} to={`/journeys/${replacedBy}`} size="xs">
                  {replacedBy}
                </Anchor>
              ) : null}
              {replacedBy ? ', which took over its profiles; it stays paused.' : ''}
            </Text>
          )}
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Button
            variant={focus ? 'light' : 'default'}
            leftSection={focus ? <IconArrowsMinimize size={16} /> : <IconArrowsMaximize size={16} />}
            aria-pressed={focus}
            title={focus ? 'Back to the page with its menus and tabs' : 'Give the canvas the whole window'}
            onClick={() => setFocus(!focus)}
          >
            {focus ? 'Exit focus' : 'Focus mode'}
          </Button>
          {canEdit && !launched && (
            <>
              <Button
                variant="default"
                onClick={onSave}
                loading={save.isPending}
                disabled={!dirty || problems.saveBlocked}
                title={
                  problems.saveBlocked
                    ? 'Fix the problems marked in red first: the draft cannot be stored with them'
                    : undefined
                }
              >
                Save
              </Button>
              <Button
                onClick={onLaunch}
                disabled={problems.launchBlocked}
                aria-describedby={problems.launchBlocked ? 'launch-blocked' : undefined}
              >
                Launch
              </Button>
              {problems.launchBlocked && (
                <Button
                  id="launch-blocked"
                  variant="subtle"
                  color="orange"
                  size="compact-sm"
                  onClick={() => setShowReasons(true)}
                >
                  Why can't I launch? ({problems.all.length})
                </Button>
              )}
            </>
          )}
          {permissionsKnown && !canEdit && <ViewOnlyActions launched={launched} paused={attributes.paused} />}
          {canEdit && <RunNowButton journeyId={journeyId} launched={launched} paused={attributes.paused} />}
          {canEdit && launched && !replacedBy && (
            <Button
              variant="default"
              loading={lifecycle.isPending}
              onClick={() =>
                lifecycle.mutate(attributes.paused ? 'resume' : 'pause', {
                  onSuccess: (next) => store.getState().markSaved(next.data.attributes as Journey, { readOnly: true }),
                  onError: failed(attributes.paused ? 'Not resumed' : 'Not paused'),
                })
              }
            >
              {attributes.paused ? 'Resume' : 'Pause'}
            </Button>
          )}
          {canEdit && (
            <Button variant="default" onClick={onDuplicate} loading={duplicate.isPending}>
              {launched && !replacedBy ? 'Edit as new draft' : 'Duplicate'}
            </Button>
          )}
        </Group>
      </Group>
      <Modal opened={launching} onClose={() => setLaunching(false)} title="Launch journey" size="lg">
        <Stack gap="sm">
          <Text size="sm">
            Launch <strong>{journey.name}</strong>? Profiles start entering at the next run. After launch, only its
            activations can be changed.
          </Text>
          {launching && versionOf && <HandoverSummary journeyId={journeyId} />}
          {launching && <LaunchEstimate journeyId={journeyId} unsaved={dirty} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setLaunching(false)}>
              Cancel
            </Button>
            <Button onClick={confirmLaunch} loading={save.isPending}>
              Launch
            </Button>
          </Group>
        </Stack>
      </Modal>
      <VersionModal
        journeyId={journeyId}
        name={attributes.name}
        opened={versioning}
        onClose={() => setVersioning(false)}
      />
      <Modal opened={showReasons} onClose={() => setShowReasons(false)} title="What stops the launch">
        <Stack gap="xs">
          {problems.all.map((p) => (
            <Text key={`${p.code}@${p.path.text}`} size="sm">
              {p.message}
            </Text>
          ))}
        </Stack>
      </Modal>
      <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title="Leave without saving?">
        <Stack>
          <Alert color="orange">This journey has changes that are not saved. They are lost if you leave.</Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => blocker.reset?.()}>
              Stay
            </Button>
            <Button color="red" onClick={() => blocker.proceed?.()}>
              Leave without saving
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
