import type { AudienceColumnType, CountOperator, OperatorType } from '@svc/contracts';

/** How an operator reads in the builder, and which value inputs it needs. */
export interface OperatorInfo {
  label: string;
  /** none: IsNull; one: a single value; two: Between/TimeRange; list: In; amount: N units (TimeWithin…). */
  input: 'none' | 'one' | 'two' | 'list' | 'amount';
  /** Time operators take dates (TimeRange, TimeBefore, TimeAfter) or an amount of units. */
  time: boolean;
}

export const OPERATORS: Record<OperatorType, OperatorInfo> = {
  Equal: { label: 'is', input: 'one', time: false },
  NotEqual: { label: 'is not', input: 'one', time: false },
  Greater: { label: 'is greater than', input: 'one', time: false },
  GreaterEqual: { label: 'is at least', input: 'one', time: false },
  Less: { label: 'is less than', input: 'one', time: false },
  LessEqual: { label: 'is at most', input: 'one', time: false },
  Between: { label: 'is between', input: 'two', time: false },
  In: { label: 'is one of', input: 'list', time: false },
  Contain: { label: 'contains', input: 'one', time: false },
  StartWith: { label: 'starts with', input: 'one', time: false },
  EndWith: { label: 'ends with', input: 'one', time: false },
  Regexp: { label: 'matches the regular expression', input: 'one', time: false },
  IsNull: { label: 'is empty', input: 'none', time: false },
  TimeWithinPast: { label: 'is within the past', input: 'amount', time: true },
  TimeWithinNext: { label: 'is within the next', input: 'amount', time: true },
  TimeRange: { label: 'is between the dates', input: 'two', time: true },
  TimeBefore: { label: 'is before', input: 'one', time: true },
  TimeAfter: { label: 'is after', input: 'one', time: true },
};

const NUMBER: OperatorType[] = [
  'Equal',
  'NotEqual',
  'Greater',
  'GreaterEqual',
  'Less',
  'LessEqual',
  'Between',
  'In',
  'IsNull',
];
const STRING: OperatorType[] = ['Equal', 'NotEqual', 'In', 'Contain', 'StartWith', 'EndWith', 'Regexp', 'IsNull'];
/** Time filters exist only for timestamp columns (spec: Parent segments, time filters). */
const TIMESTAMP: OperatorType[] = [
  'TimeWithinPast',
  'TimeWithinNext',
  'TimeRange',
  'TimeBefore',
  'TimeAfter',
  'IsNull',
];

/** The operators the builder offers for a column of this type. */
export function operatorsFor(type: AudienceColumnType): OperatorType[] {
  if (type === 'timestamp') return TIMESTAMP;
  return type === 'number' ? NUMBER : STRING;
}

export type CountType = CountOperator['type'];

export const COUNT_OPERATORS: { value: CountType; label: string }[] = [
  { value: 'GreaterEqual', label: 'at least' },
  { value: 'LessEqual', label: 'at most' },
  { value: 'Equal', label: 'exactly' },
  { value: 'Greater', label: 'more than' },
  { value: 'Less', label: 'fewer than' },
  { value: 'NotEqual', label: 'not exactly' },
  { value: 'Between', label: 'between' },
];

export const TIME_UNITS = [
  { value: 'day', label: 'days' },
  { value: 'week', label: 'weeks' },
  { value: 'month', label: 'months' },
] as const;
