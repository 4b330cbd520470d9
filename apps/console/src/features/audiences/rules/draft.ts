import type {
  BehaviorCondition,
  CountOperator,
  OperatorType,
  RuleCondition,
  RuleOperator,
  SegmentRule,
} from '@svc/contracts';

/**
 * The builder edits a draft of the rule: every node has a stable `key` for React, and values are kept as the
 * text the user typed until the rule is compiled to the wire shape (contracts `SegmentRule`).
 */

export type TimeUnit = 'day' | 'week' | 'month';

export interface DraftOperator {
  type: OperatorType;
  not: boolean;
  /** The value, the lower bound, the list (one value per line or comma) or the amount of units. */
  value: string;
  /** The upper bound of Between and TimeRange. */
  value2: string;
  unit: TimeUnit;
}

export interface DraftValue {
  key: string;
  type: 'Value';
  exclude: boolean;
  /** Attribute name (or behavior column name inside a behavior filter); '' until picked. */
  column: string;
  operator: DraftOperator;
}

export type WindowType = 'Any' | 'TimeWithinPast' | 'TimeWithinNext' | 'TimeRange' | 'TimeBefore' | 'TimeAfter';

export interface DraftBehavior {
  key: string;
  type: 'Behavior';
  exclude: boolean;
  behavior: string;
  filter: DraftGroup;
  window: { type: WindowType; value: string; value2: string; unit: TimeUnit };
  count: { type: CountOperator['type']; value: string; value2: string };
}

export interface DraftSegment {
  key: string;
  type: 'Segment';
  exclude: boolean;
  segmentId: string;
}

export interface DraftGroup {
  key: string;
  type: 'And' | 'Or';
  exclude: boolean;
  conditions: DraftNode[];
}

export type DraftNode = DraftGroup | DraftValue | DraftBehavior | DraftSegment;

let counter = 0;
const nextKey = () => `n${++counter}`;

export const newOperator = (type: OperatorType): DraftOperator => ({
  type,
  not: false,
  value: '',
  value2: '',
  unit: 'day',
});
export const newGroup = (type: 'And' | 'Or' = 'And'): DraftGroup => ({
  key: nextKey(),
  type,
  exclude: false,
  conditions: [],
});
export const newValue = (): DraftValue => ({
  key: nextKey(),
  type: 'Value',
  exclude: false,
  column: '',
  operator: newOperator('Equal'),
});
export const newBehavior = (): DraftBehavior => ({
  key: nextKey(),
  type: 'Behavior',
  exclude: false,
  behavior: '',
  filter: newGroup(),
  window: { type: 'Any', value: '', value2: '', unit: 'day' },
  count: { type: 'GreaterEqual', value: '1', value2: '' },
});
export const newSegmentRef = (): DraftSegment => ({ key: nextKey(), type: 'Segment', exclude: false, segmentId: '' });

/** Why a draft cannot be compiled yet; the builder shows it next to the count. */
export class IncompleteRule extends Error {}

/** Values of a column typed number are sent as numbers; everything else as the text. */
export type ColumnTypes = (name: string) => 'number' | 'string' | 'timestamp' | undefined;

function scalar(text: string, numeric: boolean, what: string): string | number {
  const t = text.trim();
  if (t === '') throw new IncompleteRule(`Enter ${what}.`);
  if (!numeric) return text;
  const n = Number(t);
  if (!Number.isFinite(n)) throw new IncompleteRule(`"${t}" is not a number: enter ${what} as a number.`);
  return n;
}

function amount(text: string): number {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(n) || n < 0)
    throw new IncompleteRule('Enter a whole number of units (0 or more).');
  return n;
}

function date(text: string): string {
  if (text.trim() === '') throw new IncompleteRule('Pick a date.');
  return text.trim();
}

function compileOperator(op: DraftOperator, numeric: boolean): RuleOperator {
  const not = op.not || undefined;
  switch (op.type) {
    case 'IsNull':
      return { type: 'IsNull', not };
    case 'Between':
      return {
        type: 'Between',
        minValue: scalar(op.value, numeric, 'the lower bound'),
        maxValue: scalar(op.value2, numeric, 'the upper bound'),
        not,
      };
    case 'In': {
      const items = op.value.split(/[\n,]/).filter((v) => v.trim() !== '');
      if (items.length === 0) throw new IncompleteRule('Enter at least one value, separated by commas.');
      return { type: 'In', rightValue: items.map((v) => scalar(numeric ? v : v.trim(), numeric, 'a value')), not };
    }
    case 'Contain':
    case 'StartWith':
    case 'EndWith':
    case 'Regexp':
      return { type: op.type, rightValue: String(scalar(op.value, false, 'a value')), not };
    case 'TimeWithinPast':
    case 'TimeWithinNext':
      return { type: op.type, value: amount(op.value), unit: op.unit, not };
    case 'TimeRange':
      return { type: 'TimeRange', from: date(op.value), to: date(op.value2), not };
    case 'TimeBefore':
    case 'TimeAfter':
      return { type: op.type, rightValue: date(op.value), not };
    default:
      return { type: op.type, rightValue: scalar(op.value, numeric, 'a value'), not };
  }
}

function compileBehavior(node: DraftBehavior, behaviorColumns: (behavior: string) => ColumnTypes): BehaviorCondition {
  if (node.behavior === '') throw new IncompleteRule('Pick a behavior.');
  const w = node.window;
  const window: BehaviorCondition['window'] =
    w.type === 'Any'
      ? null
      : w.type === 'TimeWithinPast' || w.type === 'TimeWithinNext'
        ? { type: w.type, value: amount(w.value), unit: w.unit }
        : w.type === 'TimeRange'
          ? { type: 'TimeRange', from: date(w.value), to: date(w.value2) }
          : { type: w.type, rightValue: date(w.value) };
  const count: CountOperator =
    node.count.type === 'Between'
      ? { type: 'Between', minValue: amount(node.count.value), maxValue: amount(node.count.value2) }
      : { type: node.count.type, rightValue: amount(node.count.value) };
  const filter =
    node.filter.conditions.length > 0
      ? compileGroup(node.filter, behaviorColumns(node.behavior), behaviorColumns)
      : null;
  return { type: 'Behavior', exclude: node.exclude || undefined, behavior: node.behavior, filter, window, count };
}

function compileNode(
  node: DraftNode,
  types: ColumnTypes,
  behaviorColumns: (behavior: string) => ColumnTypes,
): RuleCondition {
  switch (node.type) {
    case 'And':
    case 'Or':
      return compileGroup(node, types, behaviorColumns);
    case 'Segment':
      if (node.segmentId === '') throw new IncompleteRule('Pick a segment.');
      return { type: 'Segment', exclude: node.exclude || undefined, segmentId: node.segmentId };
    case 'Behavior':
      return compileBehavior(node, behaviorColumns);
    default: {
      if (node.column === '') throw new IncompleteRule('Pick a column.');
      const type = types(node.column);
      const operator = compileOperator(node.operator, type === 'number');
      return { type: 'Value', exclude: node.exclude || undefined, leftValue: { name: node.column }, operator };
    }
  }
}

function compileGroup(
  group: DraftGroup,
  types: ColumnTypes,
  behaviorColumns: (behavior: string) => ColumnTypes,
): SegmentRule {
  return {
    type: group.type,
    exclude: group.exclude || undefined,
    conditions: group.conditions.map((c) => compileNode(c, types, behaviorColumns)),
  };
}

/** The wire rule of a draft; throws IncompleteRule with a sentence when a value is still missing. */
export function compileRule(
  group: DraftGroup,
  types: ColumnTypes,
  behaviorColumns: (behavior: string) => ColumnTypes,
): SegmentRule {
  return compileGroup(group, types, behaviorColumns);
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

function draftOperator(op: RuleOperator): DraftOperator {
  const d = newOperator(op.type);
  d.not = op.not === true;
  if ('minValue' in op) return { ...d, value: text(op.minValue), value2: text(op.maxValue) };
  if ('from' in op) return { ...d, value: text(op.from), value2: text(op.to) };
  if ('unit' in op) return { ...d, value: text(op.value), unit: op.unit };
  if ('rightValue' in op)
    return { ...d, value: Array.isArray(op.rightValue) ? op.rightValue.join(', ') : text(op.rightValue) };
  return d;
}

function draftNode(c: RuleCondition): DraftNode {
  const exclude = c.exclude === true;
  switch (c.type) {
    case 'And':
    case 'Or':
      return draftRule(c);
    case 'Segment':
      return { ...newSegmentRef(), exclude, segmentId: String(c.segmentId) };
    case 'Behavior': {
      const d = newBehavior();
      const w = c.window;
      if (w) {
        d.window = { ...d.window, type: w.type };
        if ('unit' in w) d.window = { ...d.window, value: text(w.value), unit: w.unit };
        else if ('from' in w) d.window = { ...d.window, value: text(w.from), value2: text(w.to) };
        else d.window = { ...d.window, value: text(w.rightValue) };
      }
      d.count =
        c.count.type === 'Between'
          ? { type: 'Between', value: text(c.count.minValue), value2: text(c.count.maxValue) }
          : { type: c.count.type, value: text(c.count.rightValue), value2: '' };
      return { ...d, exclude, behavior: c.behavior, filter: c.filter ? draftRule(c.filter) : newGroup() };
    }
    default: {
      const column = 'name' in c.leftValue ? c.leftValue.name : '';
      return { ...newValue(), exclude, column, operator: draftOperator(c.operator) };
    }
  }
}

/** A saved rule back into an editable draft. */
export function draftRule(rule: SegmentRule): DraftGroup {
  return { ...newGroup(rule.type), exclude: rule.exclude === true, conditions: rule.conditions.map(draftNode) };
}

export const isGroup = (node: DraftNode): node is DraftGroup => node.type === 'And' || node.type === 'Or';
