import { HOGQL_LIMITS } from '../../../src/contract/analytics-limits.ts';
import { HogqlError } from './errors.ts';
import { tokenize, type Token } from './lexer.ts';

/**
 * The HogQL subset's parser (docs/hogql.md): a Pratt parser over the lexer's tokens producing
 * the AST below. It knows the columns and function names; types and arity are checked by the
 * compiler (compile.ts), which also turns the AST into SQL.
 */

export type Column = 'event' | 'distinct_id' | 'timestamp' | 'person_id';
export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'like' | 'ilike' | 'not like' | 'not ilike';
export type ArithOp = '+' | '-' | '*' | '/' | '%';

export type Node =
  | { kind: 'number'; value: number; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'bool'; value: boolean; pos: number }
  | { kind: 'null'; pos: number }
  | { kind: 'column'; name: Column; pos: number }
  | { kind: 'property'; source: 'event' | 'person'; path: string[]; pos: number }
  | { kind: 'call'; name: FunctionName; args: Node[]; pos: number }
  | { kind: 'neg'; arg: Node; pos: number }
  | { kind: 'not'; arg: Node; pos: number }
  | { kind: 'arith'; op: ArithOp; left: Node; right: Node; pos: number }
  | { kind: 'logic'; op: 'and' | 'or'; left: Node; right: Node; pos: number }
  | { kind: 'compare'; op: CompareOp; left: Node; right: Node; pos: number }
  | { kind: 'in'; negated: boolean; left: Node; list: Node[]; pos: number };

export const SCALAR_FUNCTIONS = [
  'if',
  'multiIf',
  'coalesce',
  'lower',
  'upper',
  'length',
  'concat',
  'substring',
  'trim',
  'toString',
  'toInt',
  'toFloat',
  'round',
  'floor',
  'ceil',
  'abs',
  'toDate',
  'toStartOfDay',
  'toStartOfWeek',
  'toStartOfMonth',
  'now',
  'dateDiff',
] as const;
/** Allowed only in `math_hogql`. */
export const AGGREGATE_FUNCTIONS = ['count', 'sum', 'avg', 'min', 'max', 'uniq'] as const;
export type FunctionName = (typeof SCALAR_FUNCTIONS)[number] | (typeof AGGREGATE_FUNCTIONS)[number];

/** Function names in any letter case → their canonical spelling. */
const FUNCTIONS = new Map<string, FunctionName>(
  [...SCALAR_FUNCTIONS, ...AGGREGATE_FUNCTIONS].map((f) => [f.toLowerCase(), f]),
);
const COLUMNS: readonly Column[] = ['event', 'distinct_id', 'timestamp', 'person_id'];
/** SQL words that signal a statement rather than an expression. */
const STATEMENT_WORDS = new Set([
  'select',
  'from',
  'where',
  'union',
  'insert',
  'update',
  'delete',
  'drop',
  'create',
  'alter',
  'with',
  'join',
  'attach',
  'copy',
  'pragma',
  'install',
  'load',
  'set',
  'call',
  'limit',
  'group',
  'order',
  'having',
]);
const KEYWORDS = new Set([
  'and',
  'or',
  'not',
  'like',
  'ilike',
  'in',
  'true',
  'false',
  'null',
  'is',
  'between',
  'case',
  'when',
  'then',
  'else',
  'end',
  'as',
  'distinct',
]);

const describe = (t: Token) =>
  t.kind === 'end' ? 'end of expression' : t.kind === 'string' ? 'a string' : `"${t.text}"`;

class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.i]!;
  }
  private next(): Token {
    return this.tokens[this.i++]!;
  }
  private word(t: Token = this.peek()): string {
    return t.kind === 'ident' ? t.text.toLowerCase() : '';
  }
  private isOp(text: string, t: Token = this.peek()): boolean {
    return t.kind === 'op' && t.text === text;
  }

  private expect(text: string): Token {
    const t = this.next();
    if (!this.isOp(text, t)) throw new HogqlError(`Expected "${text}" but found ${describe(t)}`, t.pos);
    return t;
  }

  private enter(pos: number): void {
    // A guard of the parser's own recursion (a call or parentheses take several frames); the
    // tree's height is checked once it is built (limitDepth).
    this.depth += 1;
    if (this.depth > HOGQL_LIMITS.depth * 4)
      throw new HogqlError(`Expression nested deeper than ${HOGQL_LIMITS.depth} levels`, pos);
  }

  parseAll(): Node {
    const node = this.expression(0);
    const t = this.peek();
    if (t.kind !== 'end') throw new HogqlError(`Unexpected ${describe(t)}`, t.pos);
    return node;
  }

  /** Binding power of the infix operator at the cursor (0: none). */
  private infixPower(): number {
    const t = this.peek();
    const w = this.word(t);
    if (w === 'or') return 1;
    if (w === 'and') return 2;
    if (
      w === 'like' ||
      w === 'ilike' ||
      w === 'in' ||
      (w === 'not' && ['like', 'ilike', 'in'].includes(this.word(this.tokens[this.i + 1])))
    )
      return 4;
    if (t.kind !== 'op') return 0;
    if (['=', '==', '!=', '<>', '<', '<=', '>', '>='].includes(t.text)) return 4;
    if (t.text === '+' || t.text === '-') return 5;
    if (t.text === '*' || t.text === '/' || t.text === '%') return 6;
    return 0;
  }

  private expression(minPower: number): Node {
    const start = this.peek();
    this.enter(start.pos);
    let left = this.prefix();
    for (;;) {
      const power = this.infixPower();
      if (power === 0 || power <= minPower) break;
      left = this.infix(left, power);
    }
    this.depth -= 1;
    return left;
  }

  private infix(left: Node, power: number): Node {
    const t = this.next();
    const w = this.word(t);
    if (w === 'or' || w === 'and') return { kind: 'logic', op: w, left, right: this.expression(power), pos: t.pos };
    if (power === 4) {
      if (left.kind === 'compare' || left.kind === 'in')
        throw new HogqlError(`Comparisons cannot be chained: add parentheses before ${describe(t)}`, t.pos);
      let op = w || (t.text === '==' ? '=' : t.text === '<>' ? '!=' : t.text);
      if (w === 'not') op = `not ${this.word(this.next())}`;
      if (op === 'in' || op === 'not in')
        return { kind: 'in', negated: op === 'not in', left, list: this.inList(), pos: t.pos };
      return { kind: 'compare', op: op as CompareOp, left, right: this.expression(power), pos: t.pos };
    }
    return { kind: 'arith', op: t.text as ArithOp, left, right: this.expression(power), pos: t.pos };
  }

  private inList(): Node[] {
    const open = this.expect('(');
    this.enter(open.pos);
    const items = this.args(open);
    this.depth -= 1;
    if (items.length === 0) throw new HogqlError('"in" needs at least one value', open.pos);
    return items;
  }

  /** Comma-separated expressions up to the closing parenthesis (the opening one is read). */
  private args(open: Token): Node[] {
    const items: Node[] = [];
    if (this.isOp(')')) {
      this.next();
      return items;
    }
    for (;;) {
      items.push(this.expression(0));
      const t = this.next();
      if (this.isOp(')', t)) return items;
      if (!this.isOp(',', t))
        throw new HogqlError(`Expected "," or ")" (opened at position ${open.pos}) but found ${describe(t)}`, t.pos);
    }
  }

  private prefix(): Node {
    const t = this.next();
    if (t.kind === 'number') {
      const value = Number(t.text);
      if (!Number.isFinite(value)) throw new HogqlError(`Number ${t.text} is out of range`, t.pos);
      return { kind: 'number', value, pos: t.pos };
    }
    if (t.kind === 'string') return { kind: 'string', value: t.text, pos: t.pos };
    if (this.isOp('(', t)) {
      const inner = this.expression(0);
      const close = this.next();
      if (!this.isOp(')', close))
        throw new HogqlError(`Expected ")" (opened at position ${t.pos}) but found ${describe(close)}`, close.pos);
      return inner;
    }
    if (this.isOp('-', t)) return { kind: 'neg', arg: this.expression(6), pos: t.pos };
    if (this.isOp('+', t)) return this.expression(6);
    if (t.kind !== 'ident') throw new HogqlError(`Unexpected ${describe(t)}`, t.pos);
    const w = t.text.toLowerCase();
    if (w === 'not') return { kind: 'not', arg: this.expression(3), pos: t.pos };
    if (w === 'true' || w === 'false') return { kind: 'bool', value: w === 'true', pos: t.pos };
    if (w === 'null') return { kind: 'null', pos: t.pos };
    if (STATEMENT_WORDS.has(w))
      throw new HogqlError(`"${t.text}" is not allowed: subqueries and statements are not supported`, t.pos);
    if (this.isOp('(')) return this.call(t);
    if (w === 'properties') return this.property('event', t);
    if (w === 'person') {
      const dot = this.next();
      const props = this.next();
      if (!this.isOp('.', dot) || this.word(props) !== 'properties')
        throw new HogqlError('Expected person.properties', t.pos);
      return this.property('person', t);
    }
    if ((COLUMNS as readonly string[]).includes(w)) return { kind: 'column', name: w as Column, pos: t.pos };
    if (KEYWORDS.has(w)) throw new HogqlError(`Unexpected "${t.text}"`, t.pos);
    throw new HogqlError(`Unknown column "${t.text}"`, t.pos);
  }

  private call(name: Token): Node {
    const fn = FUNCTIONS.get(name.text.toLowerCase());
    if (!fn) throw new HogqlError(`Unknown function "${name.text}"`, name.pos);
    const open = this.next();
    this.enter(open.pos);
    const args = this.args(open);
    this.depth -= 1;
    return { kind: 'call', name: fn, args, pos: name.pos };
  }

  /** `.key` / `['key']` segments after `properties` (at least one). */
  private property(source: 'event' | 'person', start: Token): Node {
    const path: string[] = [];
    for (;;) {
      if (this.isOp('.')) {
        this.next();
        const key = this.next();
        if (key.kind !== 'ident' && key.kind !== 'number')
          throw new HogqlError(`Expected a property name after "." but found ${describe(key)}`, key.pos);
        path.push(key.text);
      } else if (this.isOp('[')) {
        this.next();
        const key = this.next();
        if (key.kind !== 'string')
          throw new HogqlError(`Expected a quoted property name in [ ] but found ${describe(key)}`, key.pos);
        this.expect(']');
        path.push(key.text);
      } else break;
      if (path.length > HOGQL_LIMITS.depth) throw new HogqlError('Property path too deep', start.pos);
    }
    if (path.length === 0) throw new HogqlError('Expected a property name after "properties"', start.pos);
    return { kind: 'property', source, path, pos: start.pos };
  }
}

/** The AST of `src`; throws HogqlError when it is not an expression of the subset. */
export function parseHogql(src: string): Node {
  if (src.length > HOGQL_LIMITS.length)
    throw new HogqlError(`Expression longer than ${HOGQL_LIMITS.length} characters`, HOGQL_LIMITS.length);
  if (src.trim() === '') throw new HogqlError('Expected an expression', 0);
  const node = new Parser(tokenize(src)).parseAll();
  limitDepth(node, 1);
  return node;
}

const children = (n: Node): Node[] => {
  switch (n.kind) {
    case 'call':
      return n.args;
    case 'neg':
    case 'not':
      return [n.arg];
    case 'arith':
    case 'logic':
    case 'compare':
      return [n.left, n.right];
    case 'in':
      return [n.left, ...n.list];
    default:
      return [];
  }
};

/** The tree's height, chains of operators included (`1 + 1 + …` nests in SQL too), is bounded. */
function limitDepth(node: Node, level: number): void {
  if (level > HOGQL_LIMITS.depth)
    throw new HogqlError(`Expression nested deeper than ${HOGQL_LIMITS.depth} levels`, node.pos);
  for (const c of children(node)) limitDepth(c, level + 1);
}
