import { createContext, type ReactNode, useContext } from 'react';
import { useStore } from 'zustand';
import type { EditorActions, EditorState, EditorStore } from './model/editorStore';
import type { Problem } from './model/problems';

export interface EditorEnvironment {
  /** Segments of the journey's parent segment, for the pickers. */
  segments: Array<{ id: string; name: string }>;
  /** Columns of the parent segment, for the A/B unique-ID picker. */
  columns: string[];
  /** The journey's activations (journeyActivationSteps). */
  activations: Array<{ id: string; name: string }>;
  /** False while the activations load (an empty list then means nothing). */
  activationsKnown?: boolean;
  /** Moves the view to a node and selects it (from the problem list, node search, ...). */
  focusNode(id: string): void;
  /** Opens the activation editor for an activation step (absent where activations cannot be edited). */
  openActivation?: (stageIndex: number, stepId: string) => void;
  /** Set for launched journeys: the engine's records (deliveries) can be shown for it. */
  launchedJourneyId?: string;
  /** Whether delivery files may be downloaded (Full Control). */
  canDownload?: boolean;
}

const StoreContext = createContext<EditorStore | null>(null);
const EnvironmentContext = createContext<EditorEnvironment | null>(null);

export function EditorProvider(props: { store: EditorStore; environment: EditorEnvironment; children: ReactNode }) {
  return (
    <StoreContext.Provider value={props.store}>
      <EnvironmentContext.Provider value={props.environment}>{props.children}</EnvironmentContext.Provider>
    </StoreContext.Provider>
  );
}

export function useEditorStore(): EditorStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useEditorStore needs an EditorProvider.');
  return store;
}

/** Subscribes to one slice of the editor state (select narrowly: every node uses this). */
export function useEditor<T>(selector: (state: EditorState & EditorActions) => T): T {
  return useStore(useEditorStore(), selector);
}

export function useEnvironment(): EditorEnvironment {
  const environment = useContext(EnvironmentContext);
  if (!environment) throw new Error('useEnvironment needs an EditorProvider.');
  return environment;
}

const NONE: Problem[] = [];

/** The validator's findings on one step (a stable empty list when there are none). */
export function useStepProblems(stepId: string): Problem[] {
  return useEditor((s) => s.problems.byStep.get(stepId) ?? NONE);
}
