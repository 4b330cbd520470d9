import { Handle, type NodeProps, Position } from '@xyflow/react';
import { memo } from 'react';
import type { OpenNode as OpenNodeType } from '../model/flow';

/** Where a path stops without an End step yet: "+" on the edge into it extends the path. */
export const OpenNode = memo(function OpenNode(_props: NodeProps<OpenNodeType>) {
  return (
    <div className="jc-open" title="This path stops here; add a step with + or lead it to a merge">
      <Handle type="target" position={Position.Left} id="in" isConnectable={false} />…
    </div>
  );
});
