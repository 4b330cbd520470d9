import type { ExitHandle } from '@svc/journey';
import { isStepType } from '@svc/journey';
import { type DragEvent, useState } from 'react';
import { useEditor, useEditorStore } from '../EditorContext';
import { edgeRefFor, STEP_DRAG_TYPE } from '../model/edgeRef';

/** Where a dropped palette step goes: after this exit of this step (null: the stage's start). */
export interface DropTarget {
  stageIndex: number;
  stepId: string | null;
  handle: ExitHandle | null;
}

/** Marks the page while a palette step is dragged, so every connection becomes a drop target (canvas.css). */
export function markStepDrag(dragging: boolean) {
  if (dragging) document.body.dataset.stepDrag = '1';
  else delete document.body.dataset.stepDrag;
}

/**
 * Drop handlers that insert a palette step at a connection: used by the "+" of an edge, the edge's line
 * and the dashed placeholder at the end of an open path.
 */
export function useStepDrop(target: DropTarget) {
  const store = useEditorStore();
  const readOnly = useEditor((s) => s.readOnly);
  const [dropping, setDropping] = useState(false);
  if (readOnly) return { dropping: false, handlers: {} };
  return {
    dropping,
    handlers: {
      onDragOver(event: DragEvent) {
        if (!event.dataTransfer.types.includes(STEP_DRAG_TYPE)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDropping(true);
      },
      onDragLeave() {
        setDropping(false);
      },
      onDrop(event: DragEvent) {
        setDropping(false);
        markStepDrag(false);
        const type = event.dataTransfer.getData(STEP_DRAG_TYPE);
        if (!isStepType(type)) return;
        event.preventDefault();
        event.stopPropagation();
        const { journey, addStep } = store.getState();
        const after = edgeRefFor(journey, target.stageIndex, target.stepId, target.handle);
        addStep({ stageIndex: target.stageIndex, after }, type);
      },
    },
  };
}
