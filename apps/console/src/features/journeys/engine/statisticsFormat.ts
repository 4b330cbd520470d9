import type { JourneyVariantFigures } from '@svc/contracts';

/** How engine figures read in the console: rates, uplift, significance, window days. */

/** 0.1234 → "12.3 %"; null → "—". */
export function percentText(rate: number | null, digits = 1): string {
  if (rate === null || !Number.isFinite(rate)) return '—';
  return `${(rate * 100).toFixed(digits)} %`;
}

/** Uplift against the control with its sign: "+25.0 %", "−10.0 %"; "—" for the control or when unknown. */
export function upliftText(variant: Pick<JourneyVariantFigures, 'uplift' | 'control'>): string {
  if (variant.control || variant.uplift === null || !Number.isFinite(variant.uplift)) return '—';
  const text = percentText(Math.abs(variant.uplift));
  if (variant.uplift > 0) return `+${text}`;
  if (variant.uplift < 0) return `−${text}`;
  return text;
}

export interface Significance {
  label: string;
  color: 'teal' | 'gray' | 'yellow';
  /** p-value and confidence, or why there is none. */
  detail: string;
}

/** Below this p-value a difference from the control counts as significant (95 % confidence). */
const SIGNIFICANCE_LEVEL = 0.05;

export function significanceOf(
  variant: Pick<JourneyVariantFigures, 'control' | 'pValue' | 'confidence'>,
): Significance {
  if (variant.control)
    return { label: 'Control', color: 'gray', detail: 'The baseline the variants are compared with' };
  if (variant.pValue === null)
    return { label: 'Not enough data', color: 'yellow', detail: 'No comparison possible yet' };
  const detail = `p = ${variant.pValue < 0.001 ? '< 0.001' : variant.pValue.toFixed(3)} · ${percentText(variant.confidence)} confidence`;
  return variant.pValue < SIGNIFICANCE_LEVEL
    ? { label: 'Significant', color: 'teal', detail }
    : { label: 'Not significant', color: 'gray', detail };
}

/** An ISO time as the UTC day a date input shows (`YYYY-MM-DD`). */
export function utcDay(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}
