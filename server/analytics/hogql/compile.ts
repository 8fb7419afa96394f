import { jsonPointer, type HogqlEnv, type SqlParams } from '../query/properties.ts';
import { toWall } from '../query/dates.ts';
import { HogqlError } from './errors.ts';
import { AGGREGATE_FUNCTIONS, type FunctionName, type Node } from './parser.ts';
import { DATE_TEXT, hogqlWallText, NUMERIC_TEXT, parseDateText, unifyTypes, type HogqlType } from './types.ts';

/**
 * HogQL AST → DuckDB SQL (docs/hogql.md for the typing rules). Every literal, property name,
 * zone and pattern is a bound parameter; the SQL text holds only fixed keywords, operators and
 * the caller's column references. Each child's SQL appears once in its parent's, so the text
 * grows linearly with the expression: no nullif, simple CASE or IN, which DuckDB expands into
 * forms that repeat their operand (nested, that doubles per level).
 */

/** Where the expression's inputs are in the statement (SQL of trusted column references). */
export interface HogqlColumns {
  /** The event's and the person's properties (JSON). */
  event: string;
  person: string;
  eventName: string;
  distinctId: string;
  /** TIMESTAMPTZ of the event. */
  timestamp: string;
  /** The person's UUID. */
  personId: string;
}

export const EVENT_COLUMNS: HogqlColumns = {
  event: 'e.properties',
  person: 'p.properties',
  eventName: 'e.event',
  distinctId: 'e.distinct_id',
  timestamp: 'e.timestamp',
  personId: 'coalesce(ov.person_id, e.person_id, md5(e.distinct_id)::UUID)',
};

/** `value`: any type; `boolean`: a condition (NULL = false); `aggregate`: a number from aggregates (math). */
export type HogqlMode = 'value' | 'boolean' | 'aggregate';

export interface Typed {
  sql: string;
  type: HogqlType;
}

export interface CompiledHogql extends Typed {
  /** Reads person properties (the statement must join persons as `p`). */
  person: boolean;
  /** Reads the person id (the statement must join the person overrides). */
  personKey: boolean;
}

const ARITY: Record<FunctionName, [number, number]> = {
  if: [3, 3],
  multiIf: [3, 99],
  coalesce: [1, 99],
  lower: [1, 1],
  upper: [1, 1],
  length: [1, 1],
  concat: [1, 99],
  substring: [2, 3],
  trim: [1, 1],
  toString: [1, 1],
  toInt: [1, 1],
  toFloat: [1, 1],
  round: [1, 2],
  floor: [1, 1],
  ceil: [1, 1],
  abs: [1, 1],
  toDate: [1, 1],
  toStartOfDay: [1, 1],
  toStartOfWeek: [1, 1],
  toStartOfMonth: [1, 1],
  now: [0, 0],
  dateDiff: [3, 3],
  count: [0, 1],
  sum: [1, 1],
  avg: [1, 1],
  min: [1, 1],
  max: [1, 1],
  uniq: [1, 1],
};
const DATE_UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'year'] as const;
const isAggregate = (name: FunctionName) => (AGGREGATE_FUNCTIONS as readonly string[]).includes(name);

class Compiler {
  person = false;
  personKey = false;
  private inAggregate = false;

  constructor(
    private readonly params: SqlParams,
    private readonly cols: HogqlColumns,
    private readonly env: HogqlEnv,
    private readonly mode: HogqlMode,
    private readonly aggregateFilter: string,
  ) {}

  private bind(v: string | number): string {
    return this.params.add(v);
  }

  private input(node: Node): void {
    if (this.mode === 'aggregate' && !this.inAggregate) {
      throw new HogqlError(
        'A column must be inside an aggregate function (count, sum, avg, min, max, uniq) in math',
        node.pos,
      );
    }
  }

  number(t: Typed, pos: number): string {
    switch (t.type) {
      case 'number':
        return t.sql;
      case 'bool':
        return `CAST(${t.sql} AS DOUBLE)`;
      case 'text':
        return `TRY_CAST(regexp_extract(${t.sql}, ${this.bind(NUMERIC_TEXT)}, 0) AS DOUBLE)`;
      // A null-typed operand may still hold bound values (`if(x, null, null)`): its SQL stays.
      case 'null':
        return `CAST(${t.sql} AS DOUBLE)`;
      default:
        throw new HogqlError('A date cannot be used as a number (use dateDiff)', pos);
    }
  }

  text(t: Typed): string {
    switch (t.type) {
      case 'text':
        return t.sql;
      // Integral values without ".0" (-0 as 0), others as DuckDB prints a DOUBLE.
      case 'number':
        return `regexp_replace(CAST((${t.sql}) + 0.0 AS VARCHAR), ${this.bind('\\.0$')}, '')`;
      case 'bool':
        return `CAST(${t.sql} AS VARCHAR)`;
      case 'datetime':
        return `strftime(${t.sql}, ${this.bind('%Y-%m-%d %H:%M:%S')})`;
      case 'date':
        return `strftime(${t.sql}, ${this.bind('%Y-%m-%d')})`;
      case 'null':
        return `CAST(${t.sql} AS VARCHAR)`;
    }
  }

  bool(t: Typed, pos: number): string {
    switch (t.type) {
      case 'bool':
        return t.sql;
      case 'number':
        return `(${t.sql} <> 0)`;
      case 'text':
        return `CAST(list_position(['false', 'true'], ${t.sql}) - 1 AS BOOLEAN)`;
      case 'null':
        return `CAST(${t.sql} AS BOOLEAN)`;
      default:
        throw new HogqlError('A date cannot be used as a condition', pos);
    }
  }

  /** A date or datetime as a TIMESTAMP (wall time in the project's zone). */
  time(t: Typed, node: Node): string {
    if (t.type === 'datetime' || t.type === 'date') return t.sql;
    if (t.type === 'null') return `CAST(${t.sql} AS TIMESTAMP)`;
    if (t.type !== 'text') throw new HogqlError('Expected a date or datetime', node.pos);
    if (node.kind === 'string') {
      const wall = parseDateText(node.value);
      if (wall === null)
        throw new HogqlError(`'${node.value}' is not a date (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS)`, node.pos);
      // The literal is already bound (as text) and is known to read as a date.
      return `CAST(${t.sql} AS TIMESTAMP)`;
    }
    return `TRY_CAST(regexp_extract(${t.sql}, ${this.bind(DATE_TEXT)}, 0) AS TIMESTAMP)`;
  }

  convert(t: Typed, to: HogqlType, node: Node): string {
    if (t.type === to) return t.sql;
    switch (to) {
      case 'number':
        return this.number(t, node.pos);
      case 'text':
        return this.text(t);
      case 'bool':
        return this.bool(t, node.pos);
      case 'date':
      case 'datetime':
        return this.time(t, node);
      case 'null':
        return t.sql;
    }
  }

  /** The type two or more operands of a comparison are compared as. */
  private compareType(types: HogqlType[]): HogqlType {
    if (types.includes('number')) return 'number';
    if (types.includes('datetime') || types.includes('date')) return 'datetime';
    const known = types.filter((t) => t !== 'null');
    if (known.length > 0 && known.every((t) => t === 'bool')) return 'bool';
    return 'text';
  }

  compile(node: Node): Typed {
    switch (node.kind) {
      case 'number':
        return { sql: `CAST(${this.bind(String(node.value))} AS DOUBLE)`, type: 'number' };
      case 'string':
        return { sql: `CAST(${this.bind(node.value)} AS VARCHAR)`, type: 'text' };
      case 'bool':
        return { sql: node.value ? 'true' : 'false', type: 'bool' };
      case 'null':
        return { sql: 'NULL', type: 'null' };
      case 'column': {
        this.input(node);
        switch (node.name) {
          case 'event':
            return { sql: this.cols.eventName, type: 'text' };
          case 'distinct_id':
            return { sql: this.cols.distinctId, type: 'text' };
          case 'timestamp':
            return { sql: `timezone(${this.bind(this.env.timeZone)}, ${this.cols.timestamp})`, type: 'datetime' };
          case 'person_id':
            this.personKey = true;
            return { sql: `CAST(${this.cols.personId} AS VARCHAR)`, type: 'text' };
        }
        break;
      }
      case 'property': {
        this.input(node);
        if (node.source === 'person') this.person = true;
        const pointer = node.path.map((k) => jsonPointer(k)).join('');
        return {
          sql: `json_extract_string(${node.source === 'person' ? this.cols.person : this.cols.event}, ${this.bind(pointer)})`,
          type: 'text',
        };
      }
      case 'neg':
        return { sql: `(- ${this.number(this.compile(node.arg), node.arg.pos)})`, type: 'number' };
      case 'not':
        return { sql: `(NOT ${this.bool(this.compile(node.arg), node.arg.pos)})`, type: 'bool' };
      case 'arith': {
        const l = this.number(this.compile(node.left), node.left.pos);
        const r = this.number(this.compile(node.right), node.right.pos);
        // x / 0, x % 0 and results past the DOUBLE range are null, never inf or nan. The value
        // goes through a one-element list so that it is computed, and written, once.
        return {
          sql: `list_transform([${l} ${node.op} ${r}], lambda v: CASE WHEN isfinite(v) THEN v END)[1]`,
          type: 'number',
        };
      }
      case 'logic': {
        const l = this.bool(this.compile(node.left), node.left.pos);
        const r = this.bool(this.compile(node.right), node.right.pos);
        return { sql: `(${l} ${node.op.toUpperCase()} ${r})`, type: 'bool' };
      }
      case 'compare':
        return this.comparison(node);
      case 'in': {
        const left = this.compile(node.left);
        const items = node.list.map((n) => this.compile(n));
        const as = this.compareType([left.type, ...items.map((i) => i.type)]);
        const list = items.map((it, i) => this.convert(it, as, node.list[i]!)).join(', ');
        // list_contains: the left side is written once (IN may become a chain of ORs).
        const sql = `list_contains([${list}], ${this.convert(left, as, node.left)})`;
        return { sql: node.negated ? `(NOT ${sql})` : sql, type: 'bool' };
      }
      case 'call':
        return this.call(node);
    }
    throw new HogqlError('Unsupported expression', (node as Node).pos);
  }

  private comparison(node: Extract<Node, { kind: 'compare' }>): Typed {
    const { op } = node;
    const left = this.compile(node.left);
    const right = this.compile(node.right);
    // `x = null` asks whether x is null (as HogQL does), not SQL's always-null comparison.
    if ((op === '=' || op === '!=') && (node.left.kind === 'null' || node.right.kind === 'null')) {
      const other = node.left.kind === 'null' ? right : left;
      return { sql: `(${other.sql} IS ${op === '=' ? '' : 'NOT '}NULL)`, type: 'bool' };
    }
    if (op === 'like' || op === 'not like' || op === 'ilike' || op === 'not ilike') {
      const ci = op.endsWith('ilike');
      const [l, r] = [this.text(left), this.text(right)];
      const sql = ci ? `(lower(${l}) LIKE lower(${r}))` : `(${l} LIKE ${r})`;
      return { sql: op.startsWith('not') ? `(NOT ${sql})` : sql, type: 'bool' };
    }
    const as = this.compareType([left.type, right.type]);
    return { sql: `(${this.convert(left, as, node.left)} ${op} ${this.convert(right, as, node.right)})`, type: 'bool' };
  }

  private intLiteral(node: Node | undefined, name: string, min: number, max: number): number {
    if (node?.kind !== 'number' || !Number.isInteger(node.value) || node.value < min || node.value > max) {
      throw new HogqlError(`${name} must be a whole number from ${min} to ${max}`, node?.pos ?? 0);
    }
    return node.value;
  }

  private call(node: Extract<Node, { kind: 'call' }>): Typed {
    const { name, args, pos } = node;
    const [min, max] = ARITY[name];
    if (args.length < min || args.length > max) {
      throw new HogqlError(
        `${name}() takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}, not ${args.length}`,
        pos,
      );
    }
    if (isAggregate(name)) return this.aggregate(node);
    const c = (i: number) => this.compile(args[i]!);
    const num = (i: number) => this.number(c(i), args[i]!.pos);
    const txt = (i: number) => this.text(c(i));
    const tm = (i: number) => this.time(c(i), args[i]!);
    switch (name) {
      case 'if':
      case 'multiIf': {
        if (args.length % 2 === 0)
          throw new HogqlError(`${name}() takes conditions and values in pairs, then a default`, pos);
        const typed = args.map((a, i) => ({
          node: a,
          t: i % 2 === 0 && i < args.length - 1 ? null : this.compile(a),
          i,
        }));
        const whens: string[] = [];
        const values = typed.filter((x) => x.t !== null).map((x) => x.t!);
        const type = unifyTypes(values.map((v) => v.type));
        let k = 0;
        for (let i = 0; i + 1 < args.length; i += 2) {
          const cond = this.bool(this.compile(args[i]!), args[i]!.pos);
          whens.push(`WHEN ${cond} THEN ${this.convert(values[k]!, type, args[i + 1]!)}`);
          k += 1;
        }
        return {
          sql: `(CASE ${whens.join(' ')} ELSE ${this.convert(values[k]!, type, args[args.length - 1]!)} END)`,
          type,
        };
      }
      case 'coalesce': {
        const values = args.map((_, i) => c(i));
        const type = unifyTypes(values.map((v) => v.type));
        return { sql: `coalesce(${values.map((v, i) => this.convert(v, type, args[i]!)).join(', ')})`, type };
      }
      case 'lower':
      case 'upper':
      case 'trim':
        return { sql: `${name}(${txt(0)})`, type: 'text' };
      case 'length':
        return { sql: `CAST(length(${txt(0)}) AS DOUBLE)`, type: 'number' };
      case 'concat':
        return { sql: `concat(${args.map((_, i) => txt(i)).join(', ')})`, type: 'text' };
      case 'toString':
        return { sql: txt(0), type: 'text' };
      case 'substring': {
        const s = txt(0);
        const from = this.intLiteral(args[1], 'The offset of substring()', 1, 1_000_000);
        const len = args.length === 3 ? this.intLiteral(args[2], 'The length of substring()', 0, 1_000_000) : null;
        return {
          sql: `substring(${s}, ${this.bind(from)}::BIGINT${len === null ? '' : `, ${this.bind(len)}::BIGINT`})`,
          type: 'text',
        };
      }
      case 'toInt':
        return { sql: `trunc(${num(0)})`, type: 'number' };
      case 'toFloat':
        return { sql: num(0), type: 'number' };
      case 'round': {
        const x = num(0);
        const digits = args.length === 2 ? this.intLiteral(args[1], 'The precision of round()', 0, 15) : 0;
        return { sql: `round(${x}, ${this.bind(digits)}::INTEGER)`, type: 'number' };
      }
      case 'floor':
      case 'ceil':
      case 'abs':
        return { sql: `${name}(${num(0)})`, type: 'number' };
      case 'toDate':
      case 'toStartOfDay':
        return { sql: `CAST(date_trunc('day', ${tm(0)}) AS TIMESTAMP)`, type: name === 'toDate' ? 'date' : 'datetime' };
      case 'toStartOfMonth':
        return { sql: `CAST(date_trunc('month', ${tm(0)}) AS TIMESTAMP)`, type: 'date' };
      case 'toStartOfWeek': {
        // date_trunc's weeks start on Monday; Sunday weeks are Monday weeks shifted back a day.
        const sql =
          this.env.weekStart === 1
            ? `date_trunc('week', ${tm(0)})`
            : `(date_trunc('week', ${tm(0)} + INTERVAL 1 DAY) - INTERVAL 1 DAY)`;
        return { sql: `CAST(${sql} AS TIMESTAMP)`, type: 'date' };
      }
      case 'now':
        return {
          sql: `CAST(${this.bind(hogqlWallText(toWall(this.env.now, this.env.timeZone)))} AS TIMESTAMP)`,
          type: 'datetime',
        };
      case 'dateDiff': {
        const unit = args[0]!;
        if (unit.kind !== 'string' || !(DATE_UNITS as readonly string[]).includes(unit.value)) {
          throw new HogqlError(
            `dateDiff() takes a unit in quotes: ${DATE_UNITS.map((u) => `'${u}'`).join(', ')}`,
            unit.pos,
          );
        }
        const [a, b] = [tm(1), tm(2)];
        // Weeks: whole seven-day spans of the days crossed (date_diff's weeks follow ISO week numbers).
        if (unit.value === 'week')
          return { sql: `trunc(CAST(date_diff('day', ${a}, ${b}) AS DOUBLE) / 7)`, type: 'number' };
        return { sql: `CAST(date_diff(${this.bind(unit.value)}, ${a}, ${b}) AS DOUBLE)`, type: 'number' };
      }
    }
    throw new HogqlError(`Unknown function "${name}"`, pos);
  }

  private aggregate(node: Extract<Node, { kind: 'call' }>): Typed {
    const { name, args, pos } = node;
    if (this.mode !== 'aggregate')
      throw new HogqlError(`Aggregate function "${name}" is only allowed in math_hogql`, pos);
    if (this.inAggregate) throw new HogqlError(`Aggregate function "${name}" cannot be inside another aggregate`, pos);
    this.inAggregate = true;
    const arg = args.length === 0 ? null : this.compile(args[0]!);
    this.inAggregate = false;
    const f = this.aggregateFilter;
    switch (name) {
      case 'count':
        return { sql: arg === null ? `count(*)${f}` : `count(${arg.sql})${f}`, type: 'number' };
      case 'uniq':
        return { sql: `count(DISTINCT ${arg!.sql})${f}`, type: 'number' };
      default:
        return { sql: `${name}(${this.number(arg!, args[0]!.pos)})${f}`, type: 'number' };
    }
  }
}

/** Compiles a parsed expression; throws HogqlError for what the subset or its types refuse. */
export function compileHogql(
  node: Node,
  mode: HogqlMode,
  params: SqlParams,
  cols: HogqlColumns = EVENT_COLUMNS,
  aggregateFilter = '',
): CompiledHogql {
  const c = new Compiler(params, cols, params.env, mode, aggregateFilter);
  const t = c.compile(node);
  const flags = { person: c.person, personKey: c.personKey };
  if (mode === 'boolean') return { sql: `coalesce(${c.bool(t, node.pos)}, false)`, type: 'bool', ...flags };
  if (mode === 'aggregate') {
    if (t.type !== 'number' && t.type !== 'bool' && t.type !== 'null')
      throw new HogqlError('math_hogql must give a number', node.pos);
    return { sql: `coalesce(${c.number(t, node.pos)}, 0)`, type: 'number', ...flags };
  }
  return { ...t, ...flags };
}

/** The text of a value expression (breakdowns): `toString` of its result. */
export function hogqlTextOf(node: Node, params: SqlParams, cols: HogqlColumns = EVENT_COLUMNS): CompiledHogql {
  const c = new Compiler(params, cols, params.env, 'value', '');
  const t = c.compile(node);
  return { sql: c.text(t), type: 'text', person: c.person, personKey: c.personKey };
}
