import { BaseEdge, EdgeLabelRenderer, type EdgeProps, getSmoothStepPath } from '@xyflow/react';
import { memo } from 'react';
import { useEditor } from '../EditorContext';
import type { JourneyEdge } from '../model/flow';
import { useInsertMenu } from './InsertMenu';
import { useStepDrop } from './useStepDrop';

/** How far from its start a connection into a merge draws its "+" (past the source's handle). */
const JOIN_BUTTON_OFFSET = 22;

/**
 * A connection with "+" in its middle: insert a step (or paste) exactly there. Into a merge, the "+" sits at
 * the connection's start instead: the middles of several paths joining one merge lie close together.
 */
const JourneyEdgeView = memo(function JourneyEdgeView(props: EdgeProps<JourneyEdge>) {
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
  const [buttonX, buttonY] = data?.joins ? [sourceX + JOIN_BUTTON_OFFSET, sourceY] : [labelX, labelY];
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerEnd={markerEnd}
        interactionWidth={0}
        style={{ stroke: '#98a2b8', strokeWidth: 1.6 }}
      />
      {!readOnly && data && <EdgeDropLine path={path} data={data} />}
      {!readOnly && data && (
        <EdgeLabelRenderer>
          <div
            className="nodrag nopan"
            style={{ position: 'absolute', transform: `translate(-50%, -50%) translate(${buttonX}px, ${buttonY}px)` }}
          >
            <InsertButton data={data} />
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
});

/** The whole line of a connection takes a dropped palette step while one is dragged. */
function EdgeDropLine({ path, data }: { path: string; data: NonNullable<JourneyEdge['data']> }) {
  const drop = useStepDrop(data);
  return <path className="jc-edge-drop" d={path} data-drop={drop.dropping} {...drop.handlers} />;
}

function InsertButton({ data }: { data: NonNullable<JourneyEdge['data']> }) {
  const menu = useInsertMenu();
  const drop = useStepDrop(data);
  const where = data.stepId === null ? `at the start of stage ${data.stageIndex + 1}` : describe(data);
  const label = `Add a step ${where}`;
  return (
    <button
      type="button"
      className="jc-edge-button"
      // Not a tab stop: Tab goes node to node; from a node, Shift+F10 → "Insert after…" reaches the same menu.
      tabIndex={-1}
      aria-label={label}
      aria-haspopup="menu"
      data-drop={drop.dropping}
      onClick={(event) => menu.open(data, event.currentTarget, label)}
      {...drop.handlers}
    >
      +
    </button>
  );
}

function describe(data: NonNullable<JourneyEdge['data']>): string {
  return data.label ? `on path "${data.label}" of "${data.from}"` : `after "${data.from}"`;
}

export const edgeTypes = { journey: JourneyEdgeView };
