import { Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { ReactFlowProvider } from '@xyflow/react';
import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { QueryError } from '../../components/QueryError';
import { folderPermissionsQueryOptions, parentSegmentsQueryOptions, segmentsQueryOptions } from '../../lib/resources';
import { ActivationModal } from './ActivationModal';
import { activationsQuery, type JourneyAnswer, journeyQuery } from './api';
import { EditorHeader } from './EditorHeader';
import { type EditorEnvironment, EditorProvider } from './editor/EditorContext';
import type { CanvasView } from './editor/JourneyCanvas';
import { JourneyEditorLayout } from './editor/JourneyEditorLayout';
import { createEditorStore, type EditorStore } from './editor/model/editorStore';
import { newId } from './editor/model/newId';
import { useWorkspace } from './editor/workspace';
import { JourneyTabs } from './engine/JourneyTabs';

/** `/journeys/:journeyId`: the canvas, with save, launch, pause, resume and duplicate; the engine's views once launched. */
export function JourneyEditorPage() {
  const { journeyId = '' } = useParams();
  const answer = useQuery(journeyQuery(journeyId));
  if (answer.isPending) return <CenteredLoader label="Loading the journey" />;
  if (answer.error) return <QueryError title="The journey could not be loaded" error={answer.error} />;
  return <LoadedEditor key={journeyId} journeyId={journeyId} answer={answer.data} />;
}

function LoadedEditor({ journeyId, answer }: { journeyId: string; answer: JourneyAnswer }) {
  const attributes = answer.data.attributes;
  const audienceId = attributes.audienceId ?? '';
  const folderId = answer.data.relationships.parentFolder.data?.id ?? '';
  const parents = useQuery(parentSegmentsQueryOptions());
  const segments = useQuery({ ...segmentsQueryOptions(audienceId), enabled: audienceId !== '' });
  const activations = useQuery(activationsQuery(journeyId));
  const permissions = useQuery(folderPermissionsQueryOptions(folderId));
  const canEdit = permissions.data?.callerPermission === 'full_control';
  const launched = attributes.state === 'launched';
  const readOnly = !canEdit || launched;
  const [store] = useState<EditorStore>(() => createEditorStore(attributes, { newId, readOnly: true }));
  const [view, setView] = useState<CanvasView | null>(null);
  const [activationFor, setActivationFor] = useState<{ stageIndex: number; stepId: string } | null>(null);
  const focus = useWorkspace((s) => s.focus);

  const parent = parents.data?.find((p) => p.id === audienceId);
  const columns = useMemo(
    () => (parent ? [...new Set([parent.master.parentKey, ...parent.attributes.map((a) => a.name)])] : []),
    [parent],
  );
  const segmentList = useMemo(() => (segments.data ?? []).map((s) => ({ id: s.id, name: s.name })), [segments.data]);
  const activationList = useMemo(
    () => (activations.data?.data ?? []).map((a) => ({ id: a.id, name: a.attributes.syndication_params.name })),
    [activations.data],
  );

  useEffect(() => store.getState().setReadOnly(readOnly), [store, readOnly]);
  useEffect(() => {
    store.getState().setValidation({
      ...(segments.data ? { segmentIds: segmentList.map((s) => s.id) } : {}),
      ...(parent ? { columns } : {}),
      ...(activations.data ? { activationIds: activationList.map((a) => a.id) } : {}),
    });
  }, [store, segments.data, segmentList, parent, columns, activations.data, activationList]);

  const environment = useMemo<EditorEnvironment>(
    () => ({
      segments: segmentList,
      columns,
      activations: activationList,
      activationsKnown: activations.data !== undefined,
      focusNode: (id) => view?.focusNode(id),
      ...(launched ? { launchedJourneyId: journeyId, canDownload: canEdit } : {}),
      ...(canEdit
        ? { openActivation: (stageIndex: number, stepId: string) => setActivationFor({ stageIndex, stepId }) }
        : {}),
    }),
    [segmentList, columns, activationList, activations.data, view, canEdit, launched, journeyId],
  );

  const activationStep = activationFor
    ? store.getState().journey.journeyStages[activationFor.stageIndex]?.steps?.[activationFor.stepId]
    : undefined;
  const editedActivation =
    activationStep?.type === 'Activation'
      ? (activations.data?.data.find((a) => a.id === activationStep.journeyActivationStepId) ?? null)
      : null;

  return (
    <EditorProvider store={store} environment={environment}>
      <title>{`${attributes.name} · Journeys · SVC console`}</title>
      <Stack
        gap={focus ? 6 : 'sm'}
        data-focus-mode={focus || undefined}
        style={
          focus
            ? {
                position: 'fixed',
                inset: 0,
                // Above the app's header and navigation, below dialogs and menus.
                zIndex: 150,
                padding: 6,
                background: 'var(--mantine-color-body)',
              }
            : { height: 'calc(100dvh - 56px - 2 * var(--mantine-spacing-lg))' }
        }
      >
        <EditorHeader
          compact={focus}
          journeyId={journeyId}
          answer={answer}
          store={store}
          canEdit={canEdit}
          permissionsKnown={!permissions.isPending}
          parentName={parent?.name ?? null}
        />
        <JourneyTabs
          journeyId={journeyId}
          journey={attributes}
          canEdit={canEdit}
          // Without a folder nothing asks for the permission: no edit rights, known at once.
          permissionsKnown={folderId === '' || !permissions.isPending}
          segments={segmentList}
          activations={activationList}
          keyColumn={parent?.master.parentKey ?? null}
          canvasOnly={focus}
        >
          <ReactFlowProvider>
            <JourneyEditorLayout onView={setView} />
          </ReactFlowProvider>
        </JourneyTabs>
      </Stack>
      {/* A launched journey's steps cannot be relinked, so there it only edits an activation (see activationOffer). */}
      {activationFor && activationStep?.type === 'Activation' && (!launched || editedActivation) && (
        <ActivationModal
          journeyId={journeyId}
          activation={editedActivation}
          columns={columns}
          paused={attributes.paused}
          onClose={() => setActivationFor(null)}
          onSaved={(activationId) => {
            setActivationFor(null);
            // Linking is a change of the step: drafts only (a launched journey only edits linked activations).
            if (!launched) {
              store.getState().dispatch({
                type: 'updateStep',
                stageIndex: activationFor.stageIndex,
                stepId: activationFor.stepId,
                step: { ...activationStep, journeyActivationStepId: activationId },
              });
            }
            void activations.refetch();
            notifications.show({ color: 'teal', message: 'The activation was saved.' });
          }}
        />
      )}
    </EditorProvider>
  );
}
