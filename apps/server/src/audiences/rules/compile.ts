import type {
  AudienceColumnType,
  BehaviorCondition,
  CountOperator,
  JourneyVariantRef,
  RuleCondition,
  RuleOperator,
  SegmentRule,
} from '@svc/contracts';
import { badRequest, conflict } from '../../platform/errors';
import type { Definition, StoredBehavior } from '../definition';
import { attributeColumn, behaviorColumnName, behaviorTable } from '../matrix';
import { compilePattern } from './regexp';
import { timeBounds, timeSpan, toSeconds } from './time';

/**
 * Compiles a segment rule to a SQL condition over the built profile file (`profiles p`), with every value
 * bound as a parameter. Each leaf is 0 or 1 (never NULL): `not` and `exclude` take the complement, so a
 * profile without a value is matched by `not Equal`, while `NotEqual` itself needs a value.
 */

export interface CompileContext {
  /** The current definition: names and types. */
  def: Definition;
  /** The definition of the built file: which columns and tables it has. */
  built: Definition;
  /** The moment time filters are relative to. */
  at: Date;
  /** A saved segment's rule by id, within the same parent segment; null when there is none. */
  segmentRule(id: number): SegmentRule | null;
  /** Profile keys of the A/B variant a rule 7 condition names; throws 400 naming what is unknown. */
  variantKeys(ref: JourneyVariantRef): string[];
}

export interface Compiled {
  sql: string;
  params: (string | number)[];
}

type Scope = { kind: 'profile'; alias: 'p' } | { kind: 'behavior'; alias: 'r'; behavior: StoredBehavior };

const REBUILD = 'Build the parent segment again (POST /audiences/:id/run) and wait for its job.';
const MAX_CONDITIONS = 500;

class Compiler {
  readonly params: (string | number)[] = [];
  private conditions = 0;
  private readonly open = new Set<number>();

  constructor(private readonly ctx: CompileContext) {}

  bind(v: string | number | boolean): string {
    this.params.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
    return '?';
  }

  group(rule: SegmentRule, scope: Scope): string {
    const parts = rule.conditions.map((c) => this.condition(c, scope));
    const joined = parts.length === 0 ? '1' : `(${parts.join(rule.type === 'And' ? ' AND ' : ' OR ')})`;
    return rule.exclude ? `(NOT ${joined})` : joined;
  }

  condition(c: RuleCondition, scope: Scope): string {
    if (++this.conditions > MAX_CONDITIONS) {
      throw badRequest(`A rule may hold at most ${MAX_CONDITIONS} conditions, counting included segments.`);
    }
    if (c.type === 'And' || c.type === 'Or') return this.group(c, scope);
    let sql: string;
    if (c.type === 'Value') {
      if (!('name' in c.leftValue)) {
        if (scope.kind !== 'profile') {
          throw badRequest('A journey variant condition cannot be nested inside a behavior filter.');
        }
        sql = this.variant(c.leftValue, c.operator);
      } else sql = this.value(c.leftValue.name, c.operator, scope);
    } else if (c.type === 'Behavior') {
      if (scope.kind !== 'profile') throw badRequest('A behavior condition cannot be nested inside a behavior filter.');
      sql = this.behavior(c);
    } else {
      if (scope.kind !== 'profile') throw badRequest('A segment condition cannot be nested inside a behavior filter.');
      sql = this.segment((c as { segmentId: string | number }).segmentId);
    }
    return c.exclude ? `(NOT ${sql})` : sql;
  }

  /**
   * Spec rule 7: the profiles assigned to an A/B variant of a journey (`tense: intime`: once assigned, a
   * profile stays in its variant). `IsNull` with `not: true` selects them; `not` false the others.
   */
  private variant(ref: JourneyVariantRef, op: RuleOperator): string {
    if (ref.tense !== 'intime') {
      throw badRequest(
        `The journey variant condition's tense "${ref.tense.slice(0, 40)}" is not supported; use "intime".`,
      );
    }
    if (op.type !== 'IsNull') {
      throw badRequest(
        `A journey variant condition takes the operator {type: "IsNull", not: true} (in the variant), not "${op.type}".`,
      );
    }
    const keys = this.ctx.variantKeys(ref);
    return this.finish(`p.key IN (SELECT value FROM json_each(${this.bind(JSON.stringify(keys))}))`, {
      ...op,
      not: !op.not,
    });
  }

  private segment(raw: string | number): string {
    const id = Number(raw);
    const rule = Number.isSafeInteger(id) ? this.ctx.segmentRule(id) : null;
    if (!rule)
      throw badRequest(`The rule refers to the segment "${raw}", which is not a segment of this parent segment.`);
    if (this.open.has(id)) throw badRequest(`The segment ${id} includes itself through its rule; remove the cycle.`);
    this.open.add(id);
    const sql = this.group(rule, { kind: 'profile', alias: 'p' });
    this.open.delete(id);
    return sql;
  }

  private column(name: string, scope: Scope): { expr: string; type: AudienceColumnType } {
    if (scope.kind === 'profile') {
      const a = this.ctx.def.attributes.find((x) => x.name === name);
      if (!a) throw badRequest(`The rule names the attribute "${name}", which this parent segment does not have.`);
      const b = this.ctx.built.attributes.find((x) => x.id === a.id);
      const same = b && b.database === a.database && b.table === a.table && b.column === a.column;
      if (!same || b.foreignKey !== a.foreignKey || b.parentKey !== a.parentKey) {
        throw conflict(`The attribute "${name}" is not in the built profiles yet. ${REBUILD}`);
      }
      return { expr: `p."${attributeColumn(a)}"`, type: a.type };
    }
    const col = scope.behavior.columns.find((x) => x.name === name);
    if (!col) {
      throw badRequest(
        `The behavior "${scope.behavior.name}" has no column "${name}" (time filters on rows use "window").`,
      );
    }
    return { expr: `r."${behaviorColumnName(col)}"`, type: col.type };
  }

  /** A value as the column's type compares it: numbers for number and timestamp columns, text for text. */
  private operand(v: string | number | boolean, type: AudienceColumnType, name: string): string {
    if (type === 'timestamp') return this.bind(toSeconds(typeof v === 'boolean' ? Number(v) : v, name));
    if (type === 'number') {
      const n = typeof v === 'string' ? Number(v.trim()) : Number(v);
      if (typeof v === 'string' && (v.trim() === '' || !Number.isFinite(n))) {
        throw badRequest(`"${name}" is a number, so compare it with a number, not "${v.slice(0, 64)}".`);
      }
      return this.bind(n);
    }
    return this.bind(String(v));
  }

  /**
   * A comparison of a timestamp column with a date-only value (2026-01-31), which stands for that whole UTC
   * day: Equal is "on that day", Greater "after it", LessEqual "on or before it", and so on.
   */
  private dayComparison(expr: string, op: RuleOperator, name: string): string | null {
    // Parameters are positional: each is bound where it appears in the SQL, left to right.
    const day = (v: string | number | boolean) => {
      if (typeof v !== 'string') return null;
      const span = timeSpan(v, name);
      return span.to === null ? null : { from: span.from, to: span.to };
    };
    const within = (d: { from: number; to: number }) =>
      `(${expr} >= ${this.bind(d.from)} AND ${expr} < ${this.bind(d.to)})`;
    switch (op.type) {
      case 'Equal':
      case 'NotEqual':
      case 'Greater':
      case 'GreaterEqual':
      case 'Less':
      case 'LessEqual': {
        const d = day(op.rightValue);
        if (!d) return null;
        if (op.type === 'Equal') return within(d);
        if (op.type === 'NotEqual') return `NOT ${within(d)}`;
        if (op.type === 'Greater') return `${expr} >= ${this.bind(d.to)}`;
        if (op.type === 'GreaterEqual') return `${expr} >= ${this.bind(d.from)}`;
        if (op.type === 'Less') return `${expr} < ${this.bind(d.from)}`;
        return `${expr} < ${this.bind(d.to)}`;
      }
      case 'Between': {
        const lo = day(op.minValue);
        const hi = day(op.maxValue);
        if (!lo && !hi) return null;
        const low = lo ? this.bind(lo.from) : this.operand(op.minValue, 'timestamp', name);
        const high = hi
          ? `${expr} < ${this.bind(hi.to)}`
          : `${expr} <= ${this.operand(op.maxValue, 'timestamp', name)}`;
        return `(${expr} >= ${low} AND ${high})`;
      }
      case 'In': {
        if (!op.rightValue.some((v) => day(v) !== null)) return null;
        const parts = op.rightValue.map((v) => {
          const d = day(v);
          return d ? within(d) : `${expr} = ${this.operand(v, 'timestamp', name)}`;
        });
        return `(${parts.join(' OR ')})`;
      }
      default:
        return null;
    }
  }

  private value(name: string, op: RuleOperator, scope: Scope): string {
    const { expr, type } = this.column(name, scope);
    const daySql = type === 'timestamp' ? this.dayComparison(expr, op, name) : null;
    if (daySql !== null) return this.finish(daySql, op);
    const text = `CAST(${expr} AS TEXT)`;
    let sql: string;
    switch (op.type) {
      case 'Equal':
        sql = `${expr} = ${this.operand(op.rightValue, type, name)}`;
        break;
      case 'NotEqual':
        sql = `${expr} <> ${this.operand(op.rightValue, type, name)}`;
        break;
      case 'Greater':
        sql = `${expr} > ${this.operand(op.rightValue, type, name)}`;
        break;
      case 'GreaterEqual':
        sql = `${expr} >= ${this.operand(op.rightValue, type, name)}`;
        break;
      case 'Less':
        sql = `${expr} < ${this.operand(op.rightValue, type, name)}`;
        break;
      case 'LessEqual':
        sql = `${expr} <= ${this.operand(op.rightValue, type, name)}`;
        break;
      case 'Between':
        sql = `${expr} BETWEEN ${this.operand(op.minValue, type, name)} AND ${this.operand(op.maxValue, type, name)}`;
        break;
      case 'In':
        sql = `${expr} IN (${op.rightValue.map((v) => this.operand(v, type, name)).join(', ')})`;
        break;
      case 'Contain':
        sql = `instr(${text}, ${this.bind(op.rightValue)}) > 0`;
        break;
      case 'StartWith':
        sql = `substr(${text}, 1, length(${this.bind(op.rightValue)})) = ${this.bind(op.rightValue)}`;
        break;
      case 'EndWith':
        sql = `(length(${text}) >= length(${this.bind(op.rightValue)}) AND substr(${text}, length(${text}) - length(${this.bind(op.rightValue)}) + 1) = ${this.bind(op.rightValue)})`;
        break;
      case 'Regexp':
        compilePattern(op.rightValue);
        sql = `svc_regexp(${expr}, ${this.bind(op.rightValue)})`;
        break;
      case 'IsNull':
        sql = `${expr} IS NULL`;
        break;
      default:
        if (type !== 'timestamp') {
          throw badRequest(
            `The time filter ${op.type} needs a timestamp column, but "${name}" is ${type}. Change its type to timestamp on the parent segment first (only long Unix-time columns can be).`,
          );
        }
        sql = this.time(expr, op, name);
    }
    return this.finish(sql, op);
  }

  /** A condition as 0 or 1 (a NULL column matches nothing), negated when the operator says `not`. */
  private finish(sql: string, op: RuleOperator): string {
    const leaf = `coalesce((${sql}), 0)`;
    return op.not ? `(NOT ${leaf})` : leaf;
  }

  time(expr: string, op: Parameters<typeof timeBounds>[0], name: string): string {
    const { from, to, fromExclusive, toExclusive } = timeBounds(op, this.ctx.at, name);
    const parts: string[] = [];
    if (from !== null) parts.push(`${expr} ${fromExclusive ? '>' : '>='} ${this.bind(from)}`);
    if (to !== null) parts.push(`${expr} ${toExclusive ? '<' : '<='} ${this.bind(to)}`);
    return parts.join(' AND ');
  }

  private count(op: CountOperator): string {
    const sign = { Equal: '=', NotEqual: '<>', Greater: '>', GreaterEqual: '>=', Less: '<', LessEqual: '<=' } as const;
    if (op.type === 'Between') return `BETWEEN ${this.bind(op.minValue)} AND ${this.bind(op.maxValue)}`;
    return `${sign[op.type]} ${this.bind(op.rightValue)}`;
  }

  private behavior(c: BehaviorCondition): string {
    const b = this.ctx.def.behaviors.find((x) => x.name === c.behavior);
    if (!b) throw badRequest(`The rule names the behavior "${c.behavior}", which this parent segment does not have.`);
    const built = this.ctx.built.behaviors.find((x) => x.id === b.id);
    const sameSource =
      built && built.database === b.database && built.table === b.table && built.foreignKey === b.foreignKey;
    if (!sameSource || !built || b.parentKey !== built.parentKey) {
      throw conflict(`The behavior "${c.behavior}" is not in the built profiles yet. ${REBUILD}`);
    }
    const usable = { ...b, columns: b.columns.filter((col) => built.columns.some((x) => x.column === col.column)) };
    const where = ['r.key = p.key'];
    if (c.window) where.push(this.time('r."time"', c.window, 'time'));
    if (c.filter) where.push(this.group(c.filter, { kind: 'behavior', alias: 'r', behavior: usable }));
    return `coalesce((SELECT COUNT(*) FROM "${behaviorTable(b)}" r WHERE ${where.join(' AND ')}) ${this.count(c.count)}, 0)`;
  }
}

/** The SQL condition over `profiles p` and its parameters. */
export function compileRule(rule: SegmentRule, ctx: CompileContext): Compiled {
  const c = new Compiler(ctx);
  const sql = c.group(rule, { kind: 'profile', alias: 'p' });
  return { sql, params: c.params };
}
