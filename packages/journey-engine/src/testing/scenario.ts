import type { Journey } from '@svc/journey';
import { normalizeJourney } from '@svc/journey';

/** Segment ids of the scenario's parent segment. */
export const SEG = {
  entry: 'seg-entry',
  vip: 'seg-vip',
  engaged: 'seg-engaged',
  buyer: 'seg-buyer',
  unsubscribed: 'seg-unsub',
} as const;

export interface ScenarioOptions {
  allowReentry?: boolean;
  /** Percentages of control and variant of the A/B test. */
  split?: [number, number];
  state?: 'draft' | 'launched';
}

/**
 * The scenario: two stages. Stage 1 waits 3 days, then a decision point sends VIPs to an A/B
 * test (the variant is activated, the control is not) and everyone else down the excluded path; both
 * meet at a merge and end. Reaching the "engaged" milestone moves a profile to stage 2, which activates
 * it and ends; unsubscribing exits stage 2; 20 days in stage 1 exit it. The goal is "buyer".
 */
export function scenarioJourney(options: ScenarioOptions = {}): Journey {
  const [control, variant] = options.split ?? [50, 50];
  return normalizeJourney({
    name: 'Welcome',
    audienceId: '1',
    state: options.state ?? 'launched',
    allowReentry: options.allowReentry ?? false,
    goal: { name: 'Bought', segmentId: SEG.buyer },
    journeyStages: [
      {
        id: 'st1',
        name: 'Onboard',
        entryCriteria: { name: 'New', segmentId: SEG.entry },
        milestone: { name: 'Engaged', segmentId: SEG.engaged },
        exitCriterias: [{ name: 'Too long', exitAfter: 20, unit: 'days' }],
        rootStep: 'wait3',
        steps: {
          wait3: { type: 'WaitStep', name: 'Three days', waitStep: 3, waitStepUnit: 'day', next: 'vipCheck' },
          vipCheck: {
            type: 'DecisionPoint',
            name: 'VIP?',
            branches: [
              { id: 'br-vip', name: 'VIP', excludedPath: false, segmentId: SEG.vip, next: 'offerTest' },
              { id: 'br-rest', name: 'Others', excludedPath: true, segmentId: null, next: 'join' },
            ],
          },
          offerTest: {
            type: 'ABTest',
            name: 'Offer',
            customizedSplit: true,
            uniqueId: 'customer_id',
            variants: [
              { id: 'v-control', name: 'Control', percentage: control, next: 'join' },
              { id: 'v-offer', name: 'Offer', percentage: variant, next: 'sendOffer' },
            ],
          },
          sendOffer: { type: 'Activation', name: 'Offer mail', journeyActivationStepId: 'act-offer', next: 'join' },
          join: { type: 'Merge', next: 'end1' },
          end1: { type: 'End' },
        },
      },
      {
        id: 'st2',
        name: 'Engaged',
        entryCriteria: { name: 'Engaged', segmentId: SEG.engaged },
        exitCriterias: [{ name: 'Unsubscribed', segmentId: SEG.unsubscribed }],
        rootStep: 'sendThanks',
        steps: {
          sendThanks: { type: 'Activation', name: 'Thanks', journeyActivationStepId: 'act-thanks', next: 'end2' },
          end2: { type: 'End' },
        },
      },
    ],
  });
}

/** A one-stage journey whose only split is an A/B test with the given percentages (control first). */
export function abJourney(percentages: number[], journeyId = 'ab'): Journey {
  const variants = percentages.map((percentage, i) => ({
    id: `${journeyId}-v${i}`,
    name: i === 0 ? 'Control' : `Variant ${i}`,
    percentage,
    next: 'end',
  }));
  return normalizeJourney({
    name: 'Split',
    state: 'launched',
    journeyStages: [
      {
        id: 'only',
        name: 'Only',
        entryCriteria: { name: 'All', segmentId: SEG.entry },
        rootStep: 'test',
        steps: {
          test: { type: 'ABTest', name: 'Test', customizedSplit: true, uniqueId: 'customer_id', variants },
          end: { type: 'End' },
        },
      },
    ],
  });
}
