import { describe, expect, it } from 'vitest';
import { compileRule, draftRule, IncompleteRule, newBehavior, newGroup, newOperator, newValue } from './draft';

const TYPES: Record<string, 'number' | 'string' | 'timestamp'> = {
  signup_time: 'timestamp',
  age: 'number',
  plan: 'string',
};
const attr = (name: string) => TYPES[name];
const orderColumns = () => (name: string) => (name === 'amount' ? ('number' as const) : undefined);

describe('compileRule', () => {
  it('compiles "signed up within the past 7 days AND at least 2 orders in the past 30 days"', () => {
    const group = newGroup('And');
    group.conditions = [
      { ...newValue(), column: 'signup_time', operator: { ...newOperator('TimeWithinPast'), value: '7', unit: 'day' } },
      {
        ...newBehavior(),
        behavior: 'orders',
        count: { type: 'GreaterEqual', value: '2', value2: '' },
        window: { type: 'TimeWithinPast', value: '30', value2: '', unit: 'day' },
      },
    ];
    expect(compileRule(group, attr, orderColumns)).toEqual({
      type: 'And',
      exclude: undefined,
      conditions: [
        {
          type: 'Value',
          exclude: undefined,
          leftValue: { name: 'signup_time' },
          operator: { type: 'TimeWithinPast', value: 7, unit: 'day', not: undefined },
        },
        {
          type: 'Behavior',
          exclude: undefined,
          behavior: 'orders',
          filter: null,
          window: { type: 'TimeWithinPast', value: 30, unit: 'day' },
          count: { type: 'GreaterEqual', rightValue: 2 },
        },
      ],
    });
  });

  it('sends numbers for number columns and text for string columns', () => {
    const group = newGroup('Or');
    group.conditions = [
      { ...newValue(), column: 'age', operator: { ...newOperator('Between'), value: '18', value2: '30' } },
      { ...newValue(), column: 'plan', operator: { ...newOperator('In'), value: 'gold, silver', not: true } },
    ];
    const rule = compileRule(group, attr, orderColumns);
    expect(rule.conditions[0]).toMatchObject({ operator: { type: 'Between', minValue: 18, maxValue: 30 } });
    expect(rule.conditions[1]).toMatchObject({ operator: { type: 'In', rightValue: ['gold', 'silver'], not: true } });
  });

  it('says what is missing instead of sending a half-made rule', () => {
    const group = newGroup();
    group.conditions = [{ ...newValue(), column: 'age', operator: { ...newOperator('Greater'), value: 'ten' } }];
    expect(() => compileRule(group, attr, orderColumns)).toThrow(IncompleteRule);
    expect(() => compileRule(group, attr, orderColumns)).toThrow('"ten" is not a number');
    group.conditions = [newValue()];
    expect(() => compileRule(group, attr, orderColumns)).toThrow('Pick a column.');
  });

  it('round-trips a saved rule through the draft', () => {
    const rule = {
      type: 'And' as const,
      conditions: [
        {
          type: 'Value' as const,
          leftValue: { name: 'plan' },
          operator: { type: 'StartWith' as const, rightValue: 'go' },
        },
        { type: 'Segment' as const, exclude: true, segmentId: '7' },
        {
          type: 'Or' as const,
          conditions: [
            {
              type: 'Value' as const,
              leftValue: { name: 'signup_time' },
              operator: { type: 'TimeBefore' as const, rightValue: '2026-01-01' },
            },
          ],
        },
      ],
    };
    const again = compileRule(draftRule(rule), attr, orderColumns);
    expect(JSON.parse(JSON.stringify(again))).toEqual(rule);
  });
});
