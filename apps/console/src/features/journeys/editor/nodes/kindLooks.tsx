import {
  IconArrowMerge,
  IconBolt,
  IconClockHour4,
  IconFlag,
  IconFlask,
  IconGitFork,
  IconPlayerPlay,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** Colour, icon and name of each kind of node, shared by nodes, palette and minimap. */
export const KIND_LOOKS: Record<
  'Activation' | 'WaitStep' | 'DecisionPoint' | 'Merge' | 'End' | 'ABTest' | 'start',
  { color: string; icon: ReactNode; label: string }
> = {
  Activation: { color: '#4263eb', icon: <IconBolt size={16} />, label: 'Activation' },
  WaitStep: { color: '#f08c00', icon: <IconClockHour4 size={16} />, label: 'Wait' },
  DecisionPoint: { color: '#7048e8', icon: <IconGitFork size={16} />, label: 'Decision point' },
  Merge: { color: '#0ca678', icon: <IconArrowMerge size={16} />, label: 'Merge' },
  End: { color: '#495057', icon: <IconFlag size={16} />, label: 'End' },
  ABTest: { color: '#e64980', icon: <IconFlask size={16} />, label: 'A/B test' },
  start: { color: '#364fc7', icon: <IconPlayerPlay size={16} />, label: 'Stage' },
};
