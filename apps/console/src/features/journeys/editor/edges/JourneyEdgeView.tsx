import { isStepType } from '@svc/journey';
import { BaseEdge, EdgeLabelRenderer, type EdgeProps, getSmoothStepPath } from '@xyflow/react';
import { type DragEvent, memo, useState } from 'react';
import { useEditor, useEditorStore } from '../EditorContext';
import { edgeRefFor, STEP_DRAG_TYPE } from '../model/edgeRef';
import type { JourneyEdge } from '../model/flow';
import { useInsertMenu } from './InsertMenu';

/** A connection with "+" in its middle: insert a step (or paste) exactly there. */
export const JourneyEdgeView = memo(function JourneyEdgeView(props: EdgeProps<JourneyEdge>) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data, markerEnd } = props;
  const [path, labelX, labelY] = getSmoothStepPath({
    sourceX,
    sourceY,
    targetX,
    targetY,
    sourcePosition,
    targetPosition,
    borderRadius: 10,
  });
  const readOnly = useEditor((s) => s.readOnly);
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerEnd={markerEnd}
        interactionWidth={0}
        style={{ stroke: '#98a2b8', strokeWidth: 1.6 }}
      />
      {!readOnly && data && (
        <EdgeLabelRenderer>
          <div
            className="nodrag nopan"
            style={{ position: 'absolute', transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          >
            <InsertButton data={data} />
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
});

function InsertButton({ data }: { data: NonNullable<JourneyEdge['data']> }) {
  const store = useEditorStore();
  const menu = useInsertMenu();
  const [dropping, setDropping] = useState(false);
  const where = data.stepId === null ? `at the start of stage ${data.stageIndex + 1}` : describe(data);
  const label = `Add a step ${where}`;
  const onDrop = (event: DragEvent) => {
    setDropping(false);
    const type = event.dataTransfer.getData(STEP_DRAG_TYPE);
    if (!isStepType(type)) return;
    event.preventDefault();
    const { journey } = store.getState();
    const after = edgeRefFor(journey, data.stageIndex, data.stepId, data.handle);
    store.getState().dispatch({ type: 'insertStep', stageIndex: data.stageIndex, after, stepType: type });
  };
  return (
    <button
      type="button"
      className="jc-edge-button"
      // Not a tab stop: Tab goes node to node; from a node, Shift+F10 → "Insert after…" reaches the same menu.
      tabIndex={-1}
      aria-label={label}
      aria-haspopup="menu"
      data-drop={dropping}
      onClick={(event) => menu.open(data, event.currentTarget, label)}
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes(STEP_DRAG_TYPE)) return;
        event.preventDefault();
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
    >
      +
    </button>
  );
}

function describe(data: NonNullable<JourneyEdge['data']>): string {
  return data.label ? `on path "${data.label}" of "${data.from}"` : `after "${data.from}"`;
}

export const edgeTypes = { journey: JourneyEdgeView };
