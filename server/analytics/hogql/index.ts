import { AnalyticsParamError } from '../errors.ts';
import type { SqlParams } from '../query/properties.ts';
import {
  compileHogql,
  EVENT_COLUMNS,
  hogqlTextOf,
  type CompiledHogql,
  type HogqlColumns,
  type HogqlMode,
} from './compile.ts';
import { HogqlError } from './errors.ts';
import { parseHogql, type Node } from './parser.ts';

export { EVENT_COLUMNS, type CompiledHogql, type HogqlColumns } from './compile.ts';
export { HogqlError } from './errors.ts';
export { parseHogql } from './parser.ts';

/** A HogQL expression outside the subset: a 400 `validation_error` on `attr`. */
export class HogqlParamError extends AnalyticsParamError {}

function guard<T>(attr: string, f: () => T): T {
  try {
    return f();
  } catch (error) {
    if (error instanceof HogqlError) throw new HogqlParamError(attr, error.message);
    throw error;
  }
}

/** Parses `expr` (a 400 on `attr` when it is outside the subset). */
export function parseHogqlParam(expr: string, attr: string): Node {
  return guard(attr, () => parseHogql(expr));
}

/** SQL of `expr` in `mode` (boolean: a condition, NULL as false; aggregate: the math's number). */
export function hogqlSql(
  expr: string,
  mode: HogqlMode,
  params: SqlParams,
  attr: string,
  cols: HogqlColumns = EVENT_COLUMNS,
  aggregateFilter = '',
): CompiledHogql {
  return guard(attr, () => compileHogql(parseHogql(expr), mode, params, cols, aggregateFilter));
}

/** SQL text (VARCHAR) of a value expression: a breakdown's value. */
export function hogqlTextSql(
  expr: string,
  params: SqlParams,
  attr: string,
  cols: HogqlColumns = EVENT_COLUMNS,
): CompiledHogql {
  return guard(attr, () => hogqlTextOf(parseHogql(expr), params, cols));
}
