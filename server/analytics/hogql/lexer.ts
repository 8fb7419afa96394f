import { HogqlError } from './errors.ts';

/**
 * Tokens of the HogQL subset (docs/hogql.md). Positions are 0-based offsets into the
 * expression, reported in errors.
 */
export type TokenKind = 'number' | 'string' | 'ident' | 'op' | 'end';

export interface Token {
  kind: TokenKind;
  /** Numbers: their source text; strings: their unescaped value; identifiers: as written; ops: the operator. */
  text: string;
  pos: number;
}

const OPERATORS = ['==', '!=', '<>', '<=', '>=', '(', ')', '[', ']', ',', '.', '+', '-', '*', '/', '%', '=', '<', '>'];
const ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  b: '\b',
  f: '\f',
};
const IDENT_START = /[A-Za-z_$]/;
const IDENT_PART = /[A-Za-z0-9_$]/;
const DIGIT = /[0-9]/;

/** What a character is called in an error: printable characters as themselves, others by code point. */
export function describeChar(ch: string): string {
  return /^[\x21-\x7e]$/.test(ch) ? `"${ch}"` : `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function readNumber(src: string, start: number): number {
  let i = start;
  while (i < src.length && DIGIT.test(src[i]!)) i++;
  if (src[i] === '.' && DIGIT.test(src[i + 1] ?? '')) {
    i++;
    while (i < src.length && DIGIT.test(src[i]!)) i++;
  } else if (src[i] === '.' && i > start && !IDENT_START.test(src[i + 1] ?? '')) {
    i++;
  }
  if (
    (src[i] === 'e' || src[i] === 'E') &&
    (DIGIT.test(src[i + 1] ?? '') || (/[+-]/.test(src[i + 1] ?? '') && DIGIT.test(src[i + 2] ?? '')))
  ) {
    i += 2;
    while (i < src.length && DIGIT.test(src[i]!)) i++;
  }
  if (i < src.length && IDENT_PART.test(src[i]!))
    throw new HogqlError(`Unexpected ${describeChar(src[i]!)} after a number`, i);
  return i;
}

function readString(src: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  for (;;) {
    if (i >= src.length) throw new HogqlError('Unterminated string starting', start);
    const ch = src[i]!;
    if (ch === "'") {
      // A doubled quote is a quote, as in SQL.
      if (src[i + 1] === "'") {
        value += "'";
        i += 2;
        continue;
      }
      return { value, end: i + 1 };
    }
    if (ch === '\\') {
      const next = src[i + 1];
      if (next === undefined || !(next in ESCAPES)) throw new HogqlError(`Unknown escape "\\${next ?? ''}"`, i);
      value += ESCAPES[next];
      i += 2;
      continue;
    }
    value += ch;
    i++;
  }
}

/** The tokens of `src`, ending with an `end` token; throws HogqlError on anything else. */
export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i++;
      continue;
    }
    if ((ch === '-' && src[i + 1] === '-') || (ch === '/' && src[i + 1] === '*')) {
      throw new HogqlError('Comments are not supported', i);
    }
    if (DIGIT.test(ch) || (ch === '.' && DIGIT.test(src[i + 1] ?? ''))) {
      const end = readNumber(src, i);
      tokens.push({ kind: 'number', text: src.slice(i, end), pos: i });
      i = end;
      continue;
    }
    if (ch === "'") {
      const { value, end } = readString(src, i);
      tokens.push({ kind: 'string', text: value, pos: i });
      i = end;
      continue;
    }
    if (IDENT_START.test(ch)) {
      let end = i + 1;
      while (end < src.length && IDENT_PART.test(src[end]!)) end++;
      tokens.push({ kind: 'ident', text: src.slice(i, end), pos: i });
      i = end;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op) {
      tokens.push({ kind: 'op', text: op, pos: i });
      i += op.length;
      continue;
    }
    if (ch === ';') throw new HogqlError('";" is not allowed: an expression is a single expression', i);
    if (ch === '"' || ch === '`')
      throw new HogqlError(`Quoted identifiers (${ch}) are not supported: use properties['key']`, i);
    const full = String.fromCodePoint(src.codePointAt(i)!);
    throw new HogqlError(`Unexpected character ${describeChar(full)}`, i);
  }
  tokens.push({ kind: 'end', text: '', pos: src.length });
  return tokens;
}
