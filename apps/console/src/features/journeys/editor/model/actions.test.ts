import { describe, expect, it } from 'vitest';
import { actionForChord, chordOf, keyLabel } from './actions';

const key = (k: string, extra: Partial<KeyboardEvent> = {}) =>
  chordOf({
    key: k,
    code: `Key${k.toUpperCase()}`,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...extra,
  });

describe('editor shortcuts', () => {
  it('maps Ctrl+Z, Ctrl+Shift+Z and Delete to their actions', () => {
    expect(actionForChord(key('z', { ctrlKey: true }))?.id).toBe('undo');
    expect(actionForChord(key('Z', { metaKey: true, shiftKey: true }))?.id).toBe('redo');
    expect(actionForChord(key('Delete'))?.id).toBe('delete');
    expect(
      actionForChord(
        chordOf({ key: '!', code: 'Digit1', shiftKey: true, ctrlKey: false, metaKey: false, altKey: false }),
      )?.id,
    ).toBe('fit');
  });

  it('labels chords for people', () => {
    expect(keyLabel('mod+shift+z')).toBe('Ctrl+Shift+Z');
  });
});
