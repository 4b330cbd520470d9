import { z } from 'zod';
import { evenSplit } from '../split';
import type { Violation } from '../violations';
import { stepPath, violation } from '../violations';
import type { StepExit, StepKind } from './kind';
import { nextSchema, slotError } from './kind';

export const MIN_TEST_VARIANTS = 1;
export const MAX_TEST_VARIANTS = 8;

/** One arm of an A/B test. The first variant of a test is its control group. */
export const variantSchema = z.object({
  id: z.string().min(1),
  name: z.string().default(''),
  /** Share of profiles, 0 to 100; recomputed by the server when the split is not customized. */
  percentage: z.number().default(0),
  next: nextSchema,
});

/**
 * A/B test: `variants[0]` is the control, `variants[1..]` the 1 to 8 test variants. Profiles are
 * assigned by a stable hash of the `uniqueId` column. With `customizedSplit` false the split is even.
 */
export const abTestStepSchema = z.object({
  type: z.literal('ABTest'),
  name: z.string().default(''),
  description: z.string().nullable().optional(),
  customizedSplit: z.boolean().default(false),
  uniqueId: z.string().default(''),
  variants: z.array(variantSchema).default([]),
});

export type Variant = z.output<typeof variantSchema>;
export type ABTestStep = z.output<typeof abTestStepSchema>;

export function variantLabel(variant: Variant, index: number): string {
  if (variant.name) return variant.name;
  return index === 0 ? 'Control' : `Variant ${String.fromCharCode(64 + Math.min(index, 26))}`;
}

function variantExits(step: ABTestStep): StepExit[] {
  return step.variants.map((variant, index) => ({
    slot: { kind: 'variant', index },
    handle: `variant:${variant.id}`,
    label: variantLabel(variant, index),
    target: variant.next,
  }));
}

/** The same test with the percentages of an even split (and customizedSplit false). */
export function withEvenSplit(step: ABTestStep): ABTestStep {
  const shares = evenSplit(step.variants.length);
  return {
    ...step,
    customizedSplit: false,
    variants: step.variants.map((v, i) => ({ ...v, percentage: shares[i] ?? 0 })),
  };
}

function checkSplit(step: ABTestStep, parts: (variantIndex?: number) => ReturnType<typeof stepPath>): Violation[] {
  if (!step.customizedSplit) return [];
  const found: Violation[] = [];
  step.variants.forEach((variant, variantIndex) => {
    const p = variant.percentage;
    if (!Number.isInteger(p) || p < 0 || p > 100) {
      found.push(
        violation(
          'ab.percentage_integer',
          `Variant "${variantLabel(variant, variantIndex)}" gets ${p} %; use a whole number from 0 to 100.`,
          parts(variantIndex),
        ),
      );
    }
  });
  const sum = step.variants.reduce((total, v) => total + v.percentage, 0);
  if (found.length === 0 && step.variants.length > 0 && sum !== 100) {
    found.push(
      violation(
        'ab.percentage_sum',
        `The variants of this A/B test add up to ${sum} %; make them add up to exactly 100 %, or switch to an even split.`,
        parts(),
      ),
    );
  }
  return found;
}

export const abTestKind: StepKind<ABTestStep> = {
  type: 'ABTest',
  label: 'A/B test',
  schema: abTestStepSchema,
  exits: variantExits,
  withExitTarget(step, slot, target) {
    if (slot.kind !== 'variant' || !step.variants[slot.index]) throw slotError(step.type, slot);
    return { ...step, variants: step.variants.map((v, i) => (i === slot.index ? { ...v, next: target } : v)) };
  },
  create: (newId) =>
    withEvenSplit({
      type: 'ABTest',
      name: 'A/B test',
      customizedSplit: false,
      uniqueId: '',
      variants: [
        { id: newId(), name: 'Control', percentage: 0, next: null },
        { id: newId(), name: 'Variant A', percentage: 0, next: null },
      ],
    }),
  check(step, at, context) {
    const found: Violation[] = [];
    const tests = step.variants.length - 1;
    if (tests < MIN_TEST_VARIANTS || tests > MAX_TEST_VARIANTS) {
      const message =
        step.variants.length === 0
          ? `This A/B test has no variants; add a control and ${MIN_TEST_VARIANTS} to ${MAX_TEST_VARIANTS} test variants.`
          : `This A/B test has ${tests} test variant${tests === 1 ? '' : 's'} besides the control; use ${MIN_TEST_VARIANTS} to ${MAX_TEST_VARIANTS}.`;
      found.push(violation('ab.variant_count', message, stepPath(at, { field: 'variants' })));
    }
    found.push(
      ...checkSplit(step, (variantIndex) =>
        variantIndex === undefined
          ? stepPath(at, { field: 'variants' })
          : stepPath(at, { variantIndex, field: 'percentage' }),
      ),
    );
    if (step.uniqueId && context.columns && !context.columns.has(step.uniqueId)) {
      found.push(
        violation(
          'ab.unique_id_unknown',
          `This A/B test assigns profiles by column "${step.uniqueId}", which the parent segment does not have; choose one of its columns.`,
          stepPath(at, { field: 'uniqueId' }),
        ),
      );
    }
    return found;
  },
  checkForLaunch(step, at) {
    const found: Violation[] = [];
    if (!step.name.trim()) {
      found.push(violation('ab.name_missing', 'This A/B test has no name; name it.', stepPath(at, { field: 'name' })));
    }
    if (!step.uniqueId) {
      found.push(
        violation(
          'ab.unique_id_missing',
          'This A/B test does not say which column identifies a profile; choose a stable ID column such as a customer id.',
          stepPath(at, { field: 'uniqueId' }),
        ),
      );
    }
    step.variants.forEach((variant, variantIndex) => {
      if (!variant.name.trim()) {
        found.push(
          violation(
            'ab.variant_name_missing',
            `Variant ${variantIndex + 1} of this A/B test has no name; name it.`,
            stepPath(at, { variantIndex, field: 'name' }),
          ),
        );
      }
    });
    return found;
  },
};
