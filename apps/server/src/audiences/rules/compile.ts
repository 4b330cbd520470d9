import type {
  AudienceColumnType,
  BehaviorCondition,
  CountOperator,
  JourneyVariantRef,
  RuleCondition,
  RuleOperator,
  SegmentRule,
} from '@svc/contracts';
import type { DerivedDialect } from '../../data';
import { badRequest, conflict } from '../../platform/errors';
import { compilePattern } from '../../platform/regexp';
import { type RawBuilder, sql } from '../../platform/storage';
import type { Definition, StoredBehavior } from '../definition';
import { attributeColumn, behaviorColumnName, behaviorTable } from '../matrix';
import { timeBounds, timeSpan, toSeconds } from './time';

/**
 * Compiles a segment rule to a SQL condition over the built profiles (`profiles p`), for either backend,
 * with every value bound as a parameter: numbers as NUMERIC and text as TEXT, so PostgreSQL compares them as
 * SQLite does whatever the column's type. Each leaf is TRUE or FALSE (never NULL): `not` and `exclude` take
 * the complement, so a profile without a value is matched by `not Equal`, while `NotEqual` itself needs a
 * value. What differs between the backends (text search, regular expressions, lists, identifiers) comes
 * from the derived set's dialect.
 */

export interface CompileContext {
  /** The current definition: names and types. */
  def: Definition;
  /** The definition of the built file: which columns and tables it has. */
  built: Definition;
  /** The moment time filters are relative to. */
  at: Date;
  /** The SQL forms of the engine the rule runs on (the derived set's). */
  dialect: DerivedDialect;
  /** A saved segment's rule by id, within the same parent segment; null when there is none. */
  segmentRule(id: number): SegmentRule | null;
  /** Profile keys of the A/B variant a rule 7 condition names; throws 400 naming what is unknown. */
  variantKeys(ref: JourneyVariantRef): string[];
}

/** A condition over `profiles p`, its values bound. */
export type Compiled = RawBuilder<unknown>;
type Sql = RawBuilder<unknown>;

type Scope = { kind: 'profile'; alias: 'p' } | { kind: 'behavior'; alias: 'r'; behavior: StoredBehavior };

const REBUILD = 'Build the parent segment again (POST /audiences/:id/run) and wait for its job.';
const MAX_CONDITIONS = 500;

class Compiler {
  private conditions = 0;
  private readonly open = new Set<number>();
  private readonly d: DerivedDialect;

  constructor(private readonly ctx: CompileContext) {
    this.d = ctx.dialect;
  }

  /** A number bound as the dialect's number type, which compares with integer and floating columns alike. */
  num(v: number): Sql {
    return sql`CAST(${v} AS ${sql.raw(this.d.numberType)})`;
  }

  text(v: string): Sql {
    if (v.includes('\u0000')) {
      throw badRequest("A rule's text value contains the NUL character (\\u0000); remove it.");
    }
    return sql`CAST(${v} AS TEXT)`;
  }

  group(rule: SegmentRule, scope: Scope): Sql {
    const parts = rule.conditions.map((c) => this.condition(c, scope));
    const joined =
      parts.length === 0 ? sql`TRUE` : sql`(${sql.join(parts, sql.raw(rule.type === 'And' ? ' AND ' : ' OR '))})`;
    return rule.exclude ? sql`(NOT ${joined})` : joined;
  }

  condition(c: RuleCondition, scope: Scope): Sql {
    if (++this.conditions > MAX_CONDITIONS) {
      throw badRequest(`A rule may hold at most ${MAX_CONDITIONS} conditions, counting included segments.`);
    }
    if (c.type === 'And' || c.type === 'Or') return this.group(c, scope);
    let out: Sql;
    if (c.type === 'Value') {
      if (!('name' in c.leftValue)) {
        if (scope.kind !== 'profile') {
          throw badRequest('A journey variant condition cannot be nested inside a behavior filter.');
        }
        out = this.variant(c.leftValue, c.operator);
      } else out = this.value(c.leftValue.name, c.operator, scope);
    } else if (c.type === 'Behavior') {
      if (scope.kind !== 'profile') throw badRequest('A behavior condition cannot be nested inside a behavior filter.');
      out = this.behavior(c);
    } else {
      if (scope.kind !== 'profile') throw badRequest('A segment condition cannot be nested inside a behavior filter.');
      out = this.segment((c as { segmentId: string | number }).segmentId);
    }
    return c.exclude ? sql`(NOT ${out})` : out;
  }

  /**
   * Spec rule 7: the profiles assigned to an A/B variant of a journey (`tense: intime`: once assigned, a
   * profile stays in its variant). `IsNull` with `not: true` selects them; `not` false the others.
   */
  private variant(ref: JourneyVariantRef, op: RuleOperator): Sql {
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
    return this.finish(sql`p.key IN (${this.d.listValues(keys, 'text')})`, { ...op, not: !op.not });
  }

  private segment(raw: string | number): Sql {
    const id = Number(raw);
    const rule = Number.isSafeInteger(id) ? this.ctx.segmentRule(id) : null;
    if (!rule)
      throw badRequest(`The rule refers to the segment "${raw}", which is not a segment of this parent segment.`);
    if (this.open.has(id)) throw badRequest(`The segment ${id} includes itself through its rule; remove the cycle.`);
    this.open.add(id);
    const out = this.group(rule, { kind: 'profile', alias: 'p' });
    this.open.delete(id);
    return out;
  }

  private column(name: string, scope: Scope): { expr: Sql; type: AudienceColumnType } {
    if (scope.kind === 'profile') {
      const a = this.ctx.def.attributes.find((x) => x.name === name);
      if (!a) throw badRequest(`The rule names the attribute "${name}", which this parent segment does not have.`);
      const b = this.ctx.built.attributes.find((x) => x.id === a.id);
      const same = b && b.database === a.database && b.table === a.table && b.column === a.column;
      if (!same || b.foreignKey !== a.foreignKey || b.parentKey !== a.parentKey) {
        throw conflict(`The attribute "${name}" is not in the built profiles yet. ${REBUILD}`);
      }
      return { expr: sql.raw(`p.${this.d.ident(attributeColumn(a))}`), type: a.type };
    }
    const col = scope.behavior.columns.find((x) => x.name === name);
    if (!col) {
      throw badRequest(
        `The behavior "${scope.behavior.name}" has no column "${name}" (time filters on rows use "window").`,
      );
    }
    return { expr: sql.raw(`r.${this.d.ident(behaviorColumnName(col))}`), type: col.type };
  }

  /** A value as the column's type compares it: numbers for number and timestamp columns, text for text. */
  private operand(v: string | number | boolean, type: AudienceColumnType, name: string): Sql {
    if (type === 'timestamp') return this.num(toSeconds(typeof v === 'boolean' ? Number(v) : v, name));
    if (type === 'number') {
      const n = typeof v === 'string' ? Number(v.trim()) : Number(v);
      if (typeof v === 'string' && (v.trim() === '' || !Number.isFinite(n))) {
        throw badRequest(`"${name}" is a number, so compare it with a number, not "${v.slice(0, 64)}".`);
      }
      return this.num(n);
    }
    return this.text(String(v));
  }

  /**
   * A comparison of a timestamp column with a date-only value (2026-01-31), which stands for that whole UTC
   * day: Equal is "on that day", Greater "after it", LessEqual "on or before it", and so on.
   */
  private dayComparison(expr: Sql, op: RuleOperator, name: string): Sql | null {
    const day = (v: string | number | boolean) => {
      if (typeof v !== 'string') return null;
      const span = timeSpan(v, name);
      return span.to === null ? null : { from: span.from, to: span.to };
    };
    const within = (d: { from: number; to: number }) =>
      sql`(${expr} >= ${this.num(d.from)} AND ${expr} < ${this.num(d.to)})`;
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
        if (op.type === 'NotEqual') return sql`NOT ${within(d)}`;
        if (op.type === 'Greater') return sql`${expr} >= ${this.num(d.to)}`;
        if (op.type === 'GreaterEqual') return sql`${expr} >= ${this.num(d.from)}`;
        if (op.type === 'Less') return sql`${expr} < ${this.num(d.from)}`;
        return sql`${expr} < ${this.num(d.to)}`;
      }
      case 'Between': {
        const lo = day(op.minValue);
        const hi = day(op.maxValue);
        if (!lo && !hi) return null;
        const low = lo ? this.num(lo.from) : this.operand(op.minValue, 'timestamp', name);
        const high = hi
          ? sql`${expr} < ${this.num(hi.to)}`
          : sql`${expr} <= ${this.operand(op.maxValue, 'timestamp', name)}`;
        return sql`(${expr} >= ${low} AND ${high})`;
      }
      case 'In': {
        if (!op.rightValue.some((v) => day(v) !== null)) return null;
        const parts = op.rightValue.map((v) => {
          const d = day(v);
          return d ? within(d) : sql`${expr} = ${this.operand(v, 'timestamp', name)}`;
        });
        return sql`(${sql.join(parts, sql.raw(' OR '))})`;
      }
      default:
        return null;
    }
  }

  private value(name: string, op: RuleOperator, scope: Scope): Sql {
    const { expr, type } = this.column(name, scope);
    const daySql = type === 'timestamp' ? this.dayComparison(expr, op, name) : null;
    if (daySql !== null) return this.finish(daySql, op);
    const text = sql`CAST(${expr} AS TEXT)`;
    // Text columns compare as text on both backends (a binary or JSON value as its text).
    const left = type === 'string' ? text : expr;
    const operand = (v: string | number | boolean) => this.operand(v, type, name);
    let out: Sql;
    switch (op.type) {
      case 'Equal':
        out = sql`${left} = ${operand(op.rightValue)}`;
        break;
      case 'NotEqual':
        out = sql`${left} <> ${operand(op.rightValue)}`;
        break;
      case 'Greater':
        out = sql`${left} > ${operand(op.rightValue)}`;
        break;
      case 'GreaterEqual':
        out = sql`${left} >= ${operand(op.rightValue)}`;
        break;
      case 'Less':
        out = sql`${left} < ${operand(op.rightValue)}`;
        break;
      case 'LessEqual':
        out = sql`${left} <= ${operand(op.rightValue)}`;
        break;
      case 'Between':
        out = sql`${left} BETWEEN ${operand(op.minValue)} AND ${operand(op.maxValue)}`;
        break;
      case 'In':
        out = sql`${left} IN (${sql.join(op.rightValue.map(operand))})`;
        break;
      case 'Contain':
        out = sql`${this.d.position(text, this.text(op.rightValue))} > 0`;
        break;
      case 'StartWith': {
        const v = this.text(op.rightValue);
        out = sql`substr(${text}, 1, length(${v})) = ${v}`;
        break;
      }
      case 'EndWith': {
        const v = this.text(op.rightValue);
        out = sql`(length(${text}) >= length(${v}) AND substr(${text}, length(${text}) - length(${v}) + 1) = ${v})`;
        break;
      }
      case 'Regexp':
        compilePattern(op.rightValue);
        out = this.d.regexpMatch(expr, op.rightValue);
        break;
      case 'IsNull':
        out = sql`${expr} IS NULL`;
        break;
      default:
        if (type !== 'timestamp') {
          throw badRequest(
            `The time filter ${op.type} needs a timestamp column, but "${name}" is ${type}. Change its type to timestamp on the parent segment first (only long Unix-time columns can be).`,
          );
        }
        out = this.time(expr, op, name);
    }
    return this.finish(out, op);
  }

  /** A condition as TRUE or FALSE (a NULL column matches nothing), negated when the operator says `not`. */
  private finish(condition: Sql, op: RuleOperator): Sql {
    const leaf = sql`coalesce((${condition}), FALSE)`;
    return op.not ? sql`(NOT ${leaf})` : leaf;
  }

  time(expr: Sql, op: Parameters<typeof timeBounds>[0], name: string): Sql {
    const { from, to, fromExclusive, toExclusive } = timeBounds(op, this.ctx.at, name);
    const parts: Sql[] = [];
    if (from !== null) parts.push(sql`${expr} ${sql.raw(fromExclusive ? '>' : '>=')} ${this.num(from)}`);
    if (to !== null) parts.push(sql`${expr} ${sql.raw(toExclusive ? '<' : '<=')} ${this.num(to)}`);
    return sql.join(parts, sql.raw(' AND '));
  }

  private count(op: CountOperator): Sql {
    const sign = { Equal: '=', NotEqual: '<>', Greater: '>', GreaterEqual: '>=', Less: '<', LessEqual: '<=' } as const;
    if (op.type === 'Between') return sql`BETWEEN ${this.num(op.minValue)} AND ${this.num(op.maxValue)}`;
    return sql`${sql.raw(sign[op.type])} ${this.num(op.rightValue)}`;
  }

  private behavior(c: BehaviorCondition): Sql {
    const b = this.ctx.def.behaviors.find((x) => x.name === c.behavior);
    if (!b) throw badRequest(`The rule names the behavior "${c.behavior}", which this parent segment does not have.`);
    const built = this.ctx.built.behaviors.find((x) => x.id === b.id);
    const sameSource =
      built && built.database === b.database && built.table === b.table && built.foreignKey === b.foreignKey;
    if (!sameSource || !built || b.parentKey !== built.parentKey) {
      throw conflict(`The behavior "${c.behavior}" is not in the built profiles yet. ${REBUILD}`);
    }
    const usable = { ...b, columns: b.columns.filter((col) => built.columns.some((x) => x.column === col.column)) };
    const where: Sql[] = [sql`r.key = p.key`];
    if (c.window) where.push(this.time(sql`r."time"`, c.window, 'time'));
    if (c.filter) where.push(this.group(c.filter, { kind: 'behavior', alias: 'r', behavior: usable }));
    const table = sql.raw(this.d.ident(behaviorTable(b)));
    return sql`coalesce((SELECT COUNT(*) FROM ${table} r WHERE ${sql.join(where, sql.raw(' AND '))}) ${this.count(c.count)}, FALSE)`;
  }
}

/** The SQL condition over `profiles p`, its values bound. */
export function compileRule(rule: SegmentRule, ctx: CompileContext): Compiled {
  return new Compiler(ctx).group(rule, { kind: 'profile', alias: 'p' });
}
