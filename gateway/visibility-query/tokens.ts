/**
 * The lexer of the visibility filter language: words, quoted strings, numbers and operators,
 * each with the 1-based column where it starts, so errors can point at the problem.
 * @module
 */
import { InvalidQueryError } from './invalid-query.js';

/** One lexical token of a query. */
export type Token =
  | { kind: 'word'; text: string; column: number }
  | { kind: 'string'; text: string; value: string; column: number }
  | { kind: 'number'; text: string; value: number; column: number }
  | { kind: 'op'; text: '=' | '!=' | '>' | '>=' | '<' | '<=' | '(' | ')' | ','; column: number }
  | { kind: 'end'; text: ''; column: number };

const OPERATORS = ['!=', '<>', '>=', '<=', '=', '>', '<', '(', ')', ','] as const;

/** Splits `query` into tokens, ending with an `end` token. @throws InvalidQueryError on an unterminated string or a stray character */
export function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    const column = i + 1;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'" || c === '"') {
      // A backslash takes the next character as it is (\' and \\), as in Temporal's language.
      let value = '';
      let at = i + 1;
      while (at < query.length && query[at] !== c) {
        if (query[at] === '\\' && at + 1 < query.length) at++;
        value += query[at];
        at++;
      }
      if (at >= query.length) throw new InvalidQueryError(`unterminated string starting at column ${column}`);
      tokens.push({ kind: 'string', text: query.slice(i, at + 1), value, column });
      i = at + 1;
    } else if (/[0-9]/.test(c) || (c === '-' && /[0-9]/.test(query[i + 1] ?? ''))) {
      const text = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(query.slice(i))![0];
      tokens.push({ kind: 'number', text, value: Number(text), column });
      i += text.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const text = /^[A-Za-z_][A-Za-z0-9_]*/.exec(query.slice(i))![0];
      tokens.push({ kind: 'word', text, column });
      i += text.length;
    } else {
      const op = OPERATORS.find((o) => query.startsWith(o, i));
      if (!op) throw new InvalidQueryError(`unexpected character '${c}' at column ${column}`);
      tokens.push({ kind: 'op', text: op === '<>' ? '!=' : op, column });
      i += op.length;
    }
  }
  tokens.push({ kind: 'end', text: '', column: query.length + 1 });
  return tokens;
}
