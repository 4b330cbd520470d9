import { NativeSelect } from '@mantine/core';
import type { DraftSegment } from '../rules/draft';
import { patch, useBuilder } from './builderContext';
import { ConditionFrame } from './ConditionFrame';

export interface SegmentConditionEditorProps {
  node: DraftSegment;
  label: string;
}

/** Profiles of another segment of the same parent segment: included, or left out with Exclude. */
export function SegmentConditionEditor({ node, label }: SegmentConditionEditorProps) {
  const builder = useBuilder();
  return (
    <ConditionFrame
      label={label}
      kind={node.exclude ? 'Not in segment' : 'In segment'}
      exclude={node.exclude}
      onExclude={(exclude) => patch(builder, node, { exclude })}
      onRemove={() => builder.remove(node.key)}
    >
      <NativeSelect
        label="Segment"
        maw={360}
        data={[
          { value: '', label: 'Choose a segment' },
          ...builder.segments.map((s) => ({ value: s.id, label: s.name })),
        ]}
        value={node.segmentId}
        onChange={(e) => patch(builder, node, { segmentId: e.currentTarget.value })}
      />
    </ConditionFrame>
  );
}
