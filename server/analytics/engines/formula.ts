/**
 * Trend formulas: arithmetic over series letters (`A` = the first series, `B` the second, …),
 * numbers, `+ - * / %`, unary minus and parentheses. A real recursive-descent parser, never
 * eval. Division (and remainder) by zero gives 0; anything else is a FormulaError (→ 400 on
 * `formula`). Nesting is limited, so a hostile formula cannot exhaust the stack.
 */

export type FormulaNode =
  | { kind: 'num'; value: number }
  | { kind: 'series'; index: number }
  | { kind: 'neg'; arg: FormulaNode }
  | { kind: 'bin'; op: '+' | '-' | '*' | '/' | '%'; left: FormulaNode; right: FormulaNode };

export class FormulaError extends Error {}

export const FORMULA_MAX_DEPTH = 64;

type Token = { t: 'num'; v: number } | { t: 'id'; v: string } | { t: 'op'; v: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    const num = /^(\d+(\.\d*)?|\.\d+)/.exec(text.slice(i, i + 400));
    if (num) {
      tokens.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z]+/.exec(text.slice(i, i + 400));
    if (id) {
      tokens.push({ t: 'id', v: id[0] });
      i += id[0].length;
      continue;
    }
    if ('+-*/%()'.includes(c)) {
      tokens.push({ t: 'op', v: c });
      i += 1;
      continue;
    }
    throw new FormulaError(`Unexpected character "${c}" in the formula.`);
  }
  return tokens;
}

/**
 * A trends formula as given (null, or blank: none) parsed for `seriesCount` series; FormulaError
 * when it cannot be read. The trend endpoint and an insight's save both check formulas with it.
 */
export function formulaOf(text: string | null | undefined, seriesCount: number): FormulaNode | null {
  return text && text.trim() !== '' ? parseFormula(text, seriesCount) : null;
}

/** Parses `text` for `seriesCount` series. */
export function parseFormula(text: string, seriesCount: number): FormulaNode {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos];
  const isOp = (v: string) => {
    const t = peek();
    return t?.t === 'op' && t.v === v;
  };

  function primary(depth: number): FormulaNode {
    if (depth > FORMULA_MAX_DEPTH) throw new FormulaError('The formula is nested too deeply.');
    const t = peek();
    if (!t) throw new FormulaError('The formula ends too early.');
    pos += 1;
    if (t.t === 'num') return { kind: 'num', value: t.v };
    if (t.t === 'id') {
      const index = t.v.length === 1 ? t.v.toUpperCase().charCodeAt(0) - 65 : -1;
      if (index < 0 || index >= seriesCount) {
        throw new FormulaError(
          `"${t.v}" is not a series of this insight: use letters A to ${String.fromCharCode(64 + Math.max(seriesCount, 1))}.`,
        );
      }
      return { kind: 'series', index };
    }
    if (t.v === '-') return { kind: 'neg', arg: primary(depth + 1) };
    if (t.v === '+') return primary(depth + 1);
    if (t.v === '(') {
      const inner = sum(depth + 1);
      if (!isOp(')')) throw new FormulaError('A parenthesis is not closed.');
      pos += 1;
      return inner;
    }
    throw new FormulaError(`Unexpected "${t.v}" in the formula.`);
  }
  function product(depth: number): FormulaNode {
    let left = primary(depth);
    while (isOp('*') || isOp('/') || isOp('%')) {
      const op = (peek() as { v: '*' | '/' | '%' }).v;
      pos += 1;
      left = { kind: 'bin', op, left, right: primary(depth) };
    }
    return left;
  }
  function sum(depth: number): FormulaNode {
    let left = product(depth);
    while (isOp('+') || isOp('-')) {
      const op = (peek() as { v: '+' | '-' }).v;
      pos += 1;
      left = { kind: 'bin', op, left, right: product(depth) };
    }
    return left;
  }

  if (tokens.length === 0) throw new FormulaError('The formula is empty.');
  const node = sum(0);
  if (pos < tokens.length) throw new FormulaError(`Unexpected "${String(tokens[pos]!.v)}" in the formula.`);
  return node;
}

/** Evaluates `node` with the series' values at one point; non-finite results become 0. */
export function evaluateFormula(node: FormulaNode, values: readonly number[]): number {
  const ev = (n: FormulaNode): number => {
    switch (n.kind) {
      case 'num':
        return n.value;
      case 'series':
        return values[n.index] ?? 0;
      case 'neg':
        return -ev(n.arg);
      case 'bin': {
        const a = ev(n.left);
        const b = ev(n.right);
        switch (n.op) {
          case '+':
            return a + b;
          case '-':
            return a - b;
          case '*':
            return a * b;
          case '/':
            return b === 0 ? 0 : a / b;
          case '%':
            return b === 0 ? 0 : a % b;
        }
      }
    }
  };
  const result = ev(node);
  return Number.isFinite(result) ? result : 0;
}

/** Series indexes the formula reads. */
export function formulaSeries(node: FormulaNode): Set<number> {
  const out = new Set<number>();
  const walk = (n: FormulaNode): void => {
    if (n.kind === 'series') out.add(n.index);
    else if (n.kind === 'neg') walk(n.arg);
    else if (n.kind === 'bin') {
      walk(n.left);
      walk(n.right);
    }
  };
  walk(node);
  return out;
}
