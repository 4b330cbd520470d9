import { Anchor, Breadcrumbs } from '@mantine/core';
import type { ParentSegment, Segment } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { QueryError } from '../../../components/QueryError';
import { type FolderNode, treeOf } from '../../../lib/folderTree';
import { folderQueryOptions, parentSegmentQueryOptions, segmentQueryOptions, segmentsQueryOptions } from '../api';
import { SegmentEditor } from './SegmentEditor';

/** Folders flattened for a picker, nested names indented. */
function folderOptions(node: FolderNode, depth = 0): { value: string; label: string }[] {
  return [
    { value: node.id, label: `${'\u2003'.repeat(depth)}${node.name}` },
    ...node.children.flatMap((f) => folderOptions(f, depth + 1)),
  ];
}

/** `/parent-segments/:id/segments/new` and `/parent-segments/:id/segments/:segmentId`. */
export function SegmentBuilderPage() {
  const { id = '', segmentId } = useParams();
  const [search] = useSearchParams();
  const parent = useQuery(parentSegmentQueryOptions(id));
  const segments = useQuery(segmentsQueryOptions(id));
  const existing = useQuery({ ...segmentQueryOptions(id, segmentId ?? ''), enabled: segmentId !== undefined });
  const rootFolderId = parent.data?.rootFolderId ?? '';
  const folders = useQuery({ ...folderQueryOptions(rootFolderId, 32), enabled: rootFolderId !== '' });

  const failed = parent.error ?? segments.error ?? existing.error ?? folders.error;
  if (failed) return <QueryError title="The segment builder could not load" error={failed} />;
  if (!parent.data || !segments.data || !folders.data || (segmentId !== undefined && !existing.data)) {
    return <CenteredLoader label="Loading the segment builder" />;
  }
  const record: ParentSegment = parent.data;
  const segment: Segment | null = existing.data ?? null;
  return (
    <>
      <Breadcrumbs mb="sm">
        <Anchor component={Link} to="/parent-segments" size="sm">
          Parent segments
        </Anchor>
        <Anchor component={Link} to={`/parent-segments/${record.id}`} size="sm">
          {record.name}
        </Anchor>
      </Breadcrumbs>
      <SegmentEditor
        key={segmentId ?? 'new'}
        record={record}
        segment={segment}
        otherSegments={segments.data.filter((s) => s.id !== segmentId)}
        folders={folderOptions(treeOf(record, folders.data.data))}
        initialFolderId={segment?.folderId ?? search.get('folder') ?? record.rootFolderId}
      />
    </>
  );
}
