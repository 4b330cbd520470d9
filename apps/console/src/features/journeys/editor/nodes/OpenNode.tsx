import { Handle, type NodeProps, Position } from '@xyflow/react';
import { memo } from 'react';
import { useStepDrop } from '../edges/useStepDrop';
import type { OpenNode as OpenNodeType } from '../model/flow';

/**
 * Where a path stops without an End step yet: "+" on the edge into it extends the path, and so does a
 * palette step dropped on this placeholder.
 */
export const OpenNode = memo(function OpenNode({ data }: NodeProps<OpenNodeType>) {
  const drop = useStepDrop(data);
  return (
    <div
      className="jc-open"
      title="This path stops here; drop a step here, add one with + or lead it to a merge"
      data-drop={drop.dropping}
      {...drop.handlers}
    >
      <Handle type="target" position={Position.Left} id="in" isConnectable={false} />…
    </div>
  );
});
