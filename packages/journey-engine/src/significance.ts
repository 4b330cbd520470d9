/** Error function, Abramowitz and Stegun formula 7.1.26 (absolute error below 1.5e-7). */
function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign * (1 - poly * Math.exp(-a * a));
}

/** Standard normal cumulative distribution. */
export function normalCdf(z: number): number {
  return 0.5 * (1 + erf(z / Math.SQRT2));
}

export interface Comparison {
  /** Relative change of the conversion rate against the control: (rate - control) / control; null if control is 0. */
  uplift: number | null;
  /** Two-sided p-value of a pooled two-proportion z-test; null when either group is empty or nobody/everybody converted. */
  pValue: number | null;
  /** 1 - pValue: how confident one can be that the variant differs from the control. */
  confidence: number | null;
}

/** Compares a variant's goal conversions with the control's. */
export function compareToControl(conversions: number, size: number, controlConversions: number, controlSize: number) {
  const rate = size > 0 ? conversions / size : 0;
  const controlRate = controlSize > 0 ? controlConversions / controlSize : 0;
  const uplift = controlSize > 0 && controlRate > 0 && size > 0 ? (rate - controlRate) / controlRate : null;
  const pooled = size + controlSize > 0 ? (conversions + controlConversions) / (size + controlSize) : 0;
  const variance = pooled * (1 - pooled) * (1 / Math.max(size, 1) + 1 / Math.max(controlSize, 1));
  if (size === 0 || controlSize === 0 || variance <= 0) return { uplift, pValue: null, confidence: null } as Comparison;
  const z = (rate - controlRate) / Math.sqrt(variance);
  const pValue = Math.min(1, 2 * (1 - normalCdf(Math.abs(z))));
  return { uplift, pValue, confidence: 1 - pValue } as Comparison;
}
