import type { AudienceBehavior, AudienceColumnType, Segment } from '@svc/contracts';
import { createContext, useContext } from 'react';
import type { DraftNode } from '../rules/draft';

export interface BuilderColumn {
  name: string;
  type: AudienceColumnType;
}

/** What every condition editor needs: the parent segment's vocabulary and the edits of the draft tree. */
export interface Builder {
  attributes: BuilderColumn[];
  behaviors: AudienceBehavior[];
  /** Other segments of the same parent segment (a segment cannot include itself). */
  segments: Segment[];
  update: (key: string, fn: (node: DraftNode) => DraftNode) => void;
  remove: (key: string) => void;
  append: (groupKey: string, node: DraftNode) => void;
}

export const BuilderContext = createContext<Builder | null>(null);

export function useBuilder(): Builder {
  const builder = useContext(BuilderContext);
  if (!builder) throw new Error('Condition editors must be inside the segment builder.');
  return builder;
}

/** Shorthand for updating a node of a known kind. */
export function patch<T extends DraftNode>(builder: Builder, node: T, changes: Partial<T>) {
  builder.update(node.key, (n) => ({ ...n, ...changes }) as DraftNode);
}
