import type { EdgeRef, Fragment, Journey, StepType, ValidationContext } from '@svc/journey';
import { copyFragment } from '@svc/journey';
import { createStore } from 'zustand/vanilla';
import type { EditorCommand, NewId } from './commands';
import { applyCommand } from './commands';
import type { ProblemIndex } from './problems';
import { findProblems, sameProblems } from './problems';

/** What is selected: steps of one stage, a stage (its criteria), or the journey settings. */
export type Selection =
  | { kind: 'steps'; stageIndex: number; stepIds: string[] }
  | { kind: 'stage'; stageIndex: number }
  | { kind: 'journey' }
  | null;

const HISTORY_LIMIT = 200;

export interface EditorState {
  journey: Journey;
  /** The journey as last saved; `dirty` compares against it. */
  saved: Journey;
  past: Journey[];
  future: Journey[];
  /** Consecutive commands with the same key (typing in one field) make one undo step. */
  lastCoalesceKey: string | null;
  selection: Selection;
  clipboard: Fragment | null;
  readOnly: boolean;
  /** Why the last command could not apply, for a notice; null after a command that applied. */
  problem: string | null;
  /** Bumped when the graph's structure may have changed, so the canvas lays out again. */
  revision: number;
  /** What the validator checks against (segments, columns, activations of the parent segment and journey). */
  validation: ValidationContext;
  /** The validator's findings for the current draft, kept up to date on every change. */
  problems: ProblemIndex;
}

export interface EditorActions {
  /** Applies a command; false (and `problem` set) when the journey is read-only or the command cannot apply. */
  dispatch(command: EditorCommand, options?: { coalesceKey?: string }): boolean;
  undo(): void;
  redo(): void;
  select(selection: Selection): void;
  /** Adds a step of a kind on an edge and selects it, however it was added (palette, "+" menu, drop). */
  addStep(at: { stageIndex: number; after: EdgeRef }, stepType: StepType): boolean;
  /** Copies the selected steps; false when nothing copyable is selected. */
  copy(): boolean;
  /** Pastes the clipboard on an edge (default: after the single selected step, or at the stage start). */
  paste(at?: { stageIndex: number; after: EdgeRef }): boolean;
  deleteSelection(): boolean;
  /** The server stored this journey: it becomes the clean state (history is kept). */
  markSaved(journey: Journey, options?: { readOnly?: boolean }): void;
  setReadOnly(readOnly: boolean): void;
  setValidation(validation: ValidationContext): void;
  clearProblem(): void;
}

export type EditorStore = ReturnType<typeof createEditorStore>;

export function isDirty(state: Pick<EditorState, 'journey' | 'saved'>): boolean {
  return state.journey !== state.saved;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A store per open editor: the draft, its undo history, selection and clipboard (never server data). */
export function createEditorStore(
  initial: Journey,
  options: { newId: NewId; readOnly?: boolean; validation?: ValidationContext },
) {
  const store = createStore<EditorState & EditorActions>()((set, get) => ({
    journey: initial,
    saved: initial,
    past: [],
    future: [],
    lastCoalesceKey: null,
    selection: null,
    clipboard: null,
    readOnly: options.readOnly ?? false,
    problem: null,
    revision: 0,
    validation: options.validation ?? {},
    problems: findProblems(initial, options.validation ?? {}),

    dispatch(command, dispatchOptions = {}) {
      const state = get();
      if (state.readOnly) {
        set({ problem: 'This journey cannot be changed here.' });
        return false;
      }
      let next: Journey;
      try {
        next = applyCommand(state.journey, command, options.newId);
      } catch (error) {
        set({ problem: message(error) });
        return false;
      }
      const key = dispatchOptions.coalesceKey ?? null;
      const merge = key !== null && key === state.lastCoalesceKey && state.past.length > 0;
      const past = merge ? state.past : [...state.past, state.journey].slice(-HISTORY_LIMIT);
      set({
        journey: next,
        past,
        future: [],
        lastCoalesceKey: key,
        problem: null,
        revision: state.revision + 1,
        selection: keepSelection(state.selection, next),
      });
      return true;
    },

    undo() {
      const { past, journey, future, readOnly, revision, selection } = get();
      const previous = past[past.length - 1];
      if (readOnly || !previous) return;
      set({
        journey: previous,
        past: past.slice(0, -1),
        future: [journey, ...future],
        lastCoalesceKey: null,
        revision: revision + 1,
        selection: keepSelection(selection, previous),
      });
    },

    redo() {
      const { past, journey, future, readOnly, revision, selection } = get();
      const following = future[0];
      if (readOnly || !following) return;
      set({
        journey: following,
        past: [...past, journey],
        future: future.slice(1),
        lastCoalesceKey: null,
        revision: revision + 1,
        selection: keepSelection(selection, following),
      });
    },

    select(selection) {
      set({ selection, lastCoalesceKey: null });
    },

    addStep({ stageIndex, after }, stepType) {
      const stepId = options.newId();
      if (!get().dispatch({ type: 'insertStep', stageIndex, after, stepType, stepId })) return false;
      get().select({ kind: 'steps', stageIndex, stepIds: [stepId] });
      return true;
    },

    copy() {
      const { selection, journey } = get();
      if (selection?.kind !== 'steps') return false;
      const stage = journey.journeyStages[selection.stageIndex];
      const fragment = stage ? copyFragment(stage, selection.stepIds) : null;
      if (!fragment) return false;
      set({ clipboard: fragment });
      return true;
    },

    paste(at) {
      const { clipboard, selection } = get();
      if (!clipboard) return false;
      let target = at;
      if (!target && selection?.kind === 'steps' && selection.stepIds.length === 1) {
        target = { stageIndex: selection.stageIndex, after: { stepId: selection.stepIds[0] as string } };
      }
      if (!target && selection?.kind === 'stage')
        target = { stageIndex: selection.stageIndex, after: { stepId: null } };
      if (!target) {
        set({ problem: 'Select the step to paste after, or use "+" on a connection.' });
        return false;
      }
      return get().dispatch({ type: 'paste', stageIndex: target.stageIndex, after: target.after, fragment: clipboard });
    },

    deleteSelection() {
      const { selection } = get();
      if (selection?.kind !== 'steps' || selection.stepIds.length === 0) return false;
      return get().dispatch({ type: 'removeSteps', stageIndex: selection.stageIndex, stepIds: selection.stepIds });
    },

    markSaved(journey, savedOptions = {}) {
      const { revision } = get();
      set({
        journey,
        saved: journey,
        readOnly: savedOptions.readOnly ?? get().readOnly,
        revision: revision + 1,
        lastCoalesceKey: null,
      });
    },

    setReadOnly(readOnly) {
      set({ readOnly });
    },

    setValidation(validation) {
      set({ validation });
    },

    clearProblem() {
      set({ problem: null });
    },
  }));
  // The validator runs whenever the draft or what it is checked against changes.
  store.subscribe((state, previous) => {
    if (state.journey !== previous.journey || state.validation !== previous.validation) {
      const problems = findProblems(state.journey, state.validation);
      if (!sameProblems(problems, state.problems)) store.setState({ problems });
    }
  });
  return store;
}

/** Drops selected steps that no longer exist (after delete or undo). */
function keepSelection(selection: Selection, journey: Journey): Selection {
  if (selection?.kind === 'stage') return journey.journeyStages[selection.stageIndex] ? selection : null;
  if (selection?.kind !== 'steps') return selection;
  const steps = journey.journeyStages[selection.stageIndex]?.steps ?? {};
  const stepIds = selection.stepIds.filter((id) => steps[id] !== undefined);
  return stepIds.length === 0 ? null : { ...selection, stepIds };
}
