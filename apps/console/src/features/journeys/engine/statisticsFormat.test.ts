import { describe, expect, it } from 'vitest';
import { percentText, significanceOf, upliftText, utcDay } from './statisticsFormat';

describe('statistics in words', () => {
  it('writes rates as percentages with one decimal', () => {
    expect(percentText(0.1234)).toBe('12.3 %');
    expect(percentText(0)).toBe('0.0 %');
    expect(percentText(null)).toBe('—');
  });

  it('signs the uplift against the control, and has none for the control itself', () => {
    expect(upliftText({ uplift: 0.25, control: false })).toBe('+25.0 %');
    expect(upliftText({ uplift: -0.1, control: false })).toBe('−10.0 %');
    expect(upliftText({ uplift: null, control: false })).toBe('—');
    expect(upliftText({ uplift: 0, control: true })).toBe('—');
  });

  it('calls a difference significant below p = 0.05', () => {
    expect(significanceOf({ control: false, pValue: 0.012, confidence: 0.988 })).toEqual({
      label: 'Significant',
      color: 'teal',
      detail: 'p = 0.012 · 98.8 % confidence',
    });
    expect(significanceOf({ control: false, pValue: 0.2, confidence: 0.8 }).label).toBe('Not significant');
    expect(significanceOf({ control: false, pValue: 0.0001, confidence: 0.9999 }).detail).toMatch(/^p = < 0.001/);
    expect(significanceOf({ control: false, pValue: null, confidence: null }).label).toBe('Not enough data');
    expect(significanceOf({ control: true, pValue: null, confidence: null }).label).toBe('Control');
  });

  it('shows a window end as the UTC day a date input takes', () => {
    expect(utcDay('2026-11-24T23:30:00.000Z')).toBe('2026-11-24');
  });
});
