import type { Journey } from '@svc/journey';
import { normalizeJourney } from '@svc/journey';
import { describe, expect, it } from 'vitest';
import { createEditorStore } from './editorStore';

function counter() {
  let n = 0;
  return () => `id${++n}`;
}

function draft(): Journey {
  return normalizeJourney({
    name: 'Welcome',
    audienceId: '1',
    journeyStages: [
      {
        name: 'First week',
        entryCriteria: { name: 'Signed up', segmentId: '301' },
        steps: { w: { type: 'WaitStep', waitStep: 2, waitStepUnit: 'day', next: 'e' }, e: { type: 'End' } },
        rootStep: 'w',
      },
    ],
  });
}

const stepsOf = (j: Journey) => j.journeyStages[0]?.steps ?? {};

describe('editor store', () => {
  it('selects the step it adds, wherever the selection was', () => {
    const store = createEditorStore(draft(), { newId: counter() });
    store.getState().select({ kind: 'steps', stageIndex: 0, stepIds: ['w'] });
    expect(store.getState().addStep({ stageIndex: 0, after: { stepId: 'w' } }, 'Merge')).toBe(true);
    const added = Object.keys(stepsOf(store.getState().journey)).find((id) => id !== 'w' && id !== 'e');
    expect(added).toBeDefined();
    expect(stepsOf(store.getState().journey)[added as string]?.type).toBe('Merge');
    expect(store.getState().selection).toEqual({ kind: 'steps', stageIndex: 0, stepIds: [added] });
  });

  it('keeps the same problem lists when an edit changes no finding', () => {
    const store = createEditorStore(draft(), { newId: counter() });
    const before = store.getState().problems;
    const wait = stepsOf(store.getState().journey).w;
    if (wait?.type !== 'WaitStep') throw new Error('w is a wait');
    store.getState().dispatch({ type: 'updateStep', stageIndex: 0, stepId: 'w', step: { ...wait, waitStep: 5 } });
    expect(store.getState().problems).toBe(before);
    store.getState().dispatch({ type: 'updateStep', stageIndex: 0, stepId: 'w', step: { ...wait, waitStep: 0 } });
    expect(store.getState().problems).not.toBe(before);
    expect(
      store
        .getState()
        .problems.byStep.get('w')
        ?.map((p) => p.code),
    ).toContain('wait.length');
  });

  it('undoes and redoes an inserted step', () => {
    const store = createEditorStore(draft(), { newId: counter() });
    const before = store.getState().journey;
    expect(
      store.getState().dispatch({ type: 'insertStep', stageIndex: 0, after: { stepId: 'w' }, stepType: 'Merge' }),
    ).toBe(true);
    const after = store.getState().journey;
    expect(Object.keys(stepsOf(after))).toEqual(['w', 'id1', 'e']);
    store.getState().undo();
    expect(store.getState().journey).toBe(before);
    store.getState().redo();
    expect(store.getState().journey).toBe(after);
  });

  it('a new command after an undo drops the redo history', () => {
    const store = createEditorStore(draft(), { newId: counter() });
    const { dispatch } = store.getState();
    dispatch({ type: 'insertStep', stageIndex: 0, after: { stepId: 'w' }, stepType: 'Merge' });
    store.getState().undo();
    dispatch({ type: 'updateJourney', patch: { name: 'Renamed' } });
    expect(store.getState().future).toEqual([]);
    store.getState().redo();
    expect(store.getState().journey.name).toBe('Renamed');
  });

  it('typing in one field is one undo step', () => {
    const store = createEditorStore(draft(), { newId: counter() });
    for (const name of ['W', 'We', 'Wel']) {
      store.getState().dispatch({ type: 'updateJourney', patch: { name } }, { coalesceKey: 'journey.name' });
    }
    expect(store.getState().past).toHaveLength(1);
    store.getState().undo();
    expect(store.getState().journey.name).toBe('Welcome');
  });

  it('a command that cannot apply changes nothing and says why', () => {
    const store = createEditorStore(draft(), { newId: counter() });
    const before = store.getState().journey;
    const ok = store
      .getState()
      .dispatch({ type: 'insertStep', stageIndex: 0, after: { stepId: null }, stepType: 'End' });
    expect(ok).toBe(false);
    expect(store.getState().journey).toBe(before);
    expect(store.getState().past).toEqual([]);
    expect(store.getState().problem).toMatch(/only be added where a path stops/);
  });

  it('refuses every change when read-only, undo included', () => {
    const store = createEditorStore(draft(), { newId: counter(), readOnly: true });
    expect(store.getState().dispatch({ type: 'updateJourney', patch: { name: 'X' } })).toBe(false);
    expect(store.getState().journey.name).toBe('Welcome');
  });

  it('deletes the selection with reconnection, and undo brings it back', () => {
    const store = createEditorStore(draft(), { newId: counter() });
    store.getState().select({ kind: 'steps', stageIndex: 0, stepIds: ['w'] });
    expect(store.getState().deleteSelection()).toBe(true);
    expect(store.getState().journey.journeyStages[0]?.rootStep).toBe('e');
    expect(store.getState().selection).toBeNull();
    store.getState().undo();
    expect(Object.keys(stepsOf(store.getState().journey))).toEqual(['w', 'e']);
  });

  it('copies a step and pastes it with new ids after the selected step', () => {
    const store = createEditorStore(draft(), { newId: counter() });
    store.getState().select({ kind: 'steps', stageIndex: 0, stepIds: ['w'] });
    expect(store.getState().copy()).toBe(true);
    expect(store.getState().paste()).toBe(true);
    const steps = stepsOf(store.getState().journey);
    expect(Object.keys(steps)).toEqual(['w', 'id1', 'e']);
    expect(steps.w).toMatchObject({ next: 'id1' });
    expect(steps.id1).toMatchObject({ type: 'WaitStep', waitStep: 2, next: 'e' });
    store.getState().undo();
    expect(Object.keys(stepsOf(store.getState().journey))).toEqual(['w', 'e']);
  });

  it('keeps the validator findings current and tracks unsaved changes', () => {
    const store = createEditorStore(draft(), { newId: counter(), validation: { segmentIds: ['301'] } });
    expect(store.getState().problems.saveBlocked).toBe(false);
    store.getState().dispatch({
      type: 'updateStep',
      stageIndex: 0,
      stepId: 'w',
      step: { type: 'WaitStep', waitStep: 0, waitStepUnit: 'day', next: 'e' },
    });
    expect(
      store
        .getState()
        .problems.byStep.get('w')
        ?.map((p) => p.code),
    ).toEqual(['wait.length']);
    expect(store.getState().journey).not.toBe(store.getState().saved);
    store.getState().undo();
    expect(store.getState().problems.byStep.get('w')).toBeUndefined();
    store.getState().markSaved(store.getState().journey);
    expect(store.getState().journey).toBe(store.getState().saved);
  });

  it('builds a decision point with three paths, one excluded, through commands alone', () => {
    const store = createEditorStore(draft(), { newId: counter() });
    const { dispatch } = store.getState();
    dispatch({ type: 'insertStep', stageIndex: 0, after: { stepId: 'w' }, stepType: 'DecisionPoint' });
    dispatch({ type: 'addBranch', stageIndex: 0, stepId: 'id1' });
    dispatch({ type: 'updateBranch', stageIndex: 0, stepId: 'id1', branchIndex: 0, patch: { segmentId: '301' } });
    dispatch({ type: 'updateBranch', stageIndex: 0, stepId: 'id1', branchIndex: 1, patch: { segmentId: '302' } });
    const point = stepsOf(store.getState().journey).id1;
    expect(point?.type === 'DecisionPoint' && point.branches.map((b) => [b.name, b.segmentId, b.excludedPath])).toEqual(
      [
        ['Path 1', '301', false],
        ['Path 2', '302', false],
        ['Excluded profiles', null, true],
      ],
    );
    expect(store.getState().past).toHaveLength(4);
  });
});
