import type { JourneyNode } from './flow';
import { isStepNode } from './flow';

/**
 * Fixed node sizes: the layout needs them before anything is measured, and fixed sizes keep the layout
 * from moving when a name or a setting changes. The node components draw to these sizes.
 */
const STEP_WIDTH = 232;
const STEP_HEIGHT = 76;
const SPLIT_HEADER = 52;
const EXIT_ROW = 30;
const START_WIDTH = 260;
const START_HEIGHT = 176;
const OPEN_WIDTH = 44;
const OPEN_HEIGHT = 44;
export const LANE_PADDING = 28;
export const LANE_HEADER = 36;
export const LANE_GAP = 36;

export interface Size {
  width: number;
  height: number;
}

function splitHeight(exits: number): number {
  return SPLIT_HEADER + exits * EXIT_ROW + 10;
}

/** Where (from the node's top) the handle of exit `index` sits on a split node. */
export function exitHandleTop(index: number): number {
  return SPLIT_HEADER + index * EXIT_ROW + EXIT_ROW / 2;
}

export function sizeOf(node: JourneyNode): Size {
  if (node.type === 'start') return { width: START_WIDTH, height: START_HEIGHT };
  if (node.type === 'open') return { width: OPEN_WIDTH, height: OPEN_HEIGHT };
  if (isStepNode(node)) {
    const exits = node.data.exits.length;
    return { width: STEP_WIDTH, height: exits > 1 ? splitHeight(exits) : STEP_HEIGHT };
  }
  return { width: 0, height: 0 };
}
