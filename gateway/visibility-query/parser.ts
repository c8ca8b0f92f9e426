/**
 * The parser of the visibility filter language (Temporal's list-filter subset) into a tree:
 * `AND` binds tighter than `OR`, `NOT` tighter than both; parentheses group.
 * @module
 */
import { InvalidQueryError } from './invalid-query.js';
import { tokenize, type Token } from './tokens.js';

/** A literal value as written: strings (also datetimes, checked later), numbers, booleans. */
export type Literal =
  | { kind: 'string'; value: string; column: number }
  | { kind: 'number'; value: number; column: number }
  | { kind: 'bool'; value: boolean; column: number };

/** A comparison operator. */
export type CompareOp = '=' | '!=' | '>' | '>=' | '<' | '<=';

/** The attribute a predicate reads, with where it was named. */
export interface AttributeRef {
  name: string;
  column: number;
}

/** A parsed filter. */
export type Filter =
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'not'; operand: Filter }
  | { kind: 'compare'; attribute: AttributeRef; op: CompareOp; value: Literal }
  | { kind: 'in'; attribute: AttributeRef; values: Literal[]; negated: boolean }
  | { kind: 'between'; attribute: AttributeRef; low: Literal; high: Literal; negated: boolean }
  | { kind: 'isNull'; attribute: AttributeRef; negated: boolean }
  | { kind: 'startsWith'; attribute: AttributeRef; prefix: Literal };

/**
 * Deepest nesting of NOT and parentheses: the parser and the evaluator recurse once per level,
 * and a query of a few thousand `(` overflowed the stack (a 500) before this bound.
 */
export const MAX_QUERY_DEPTH = 64;

const COMPARE_OPS = new Set(['=', '!=', '>', '>=', '<', '<=']);
const RESERVED = new Set(['AND', 'OR', 'NOT', 'IN', 'BETWEEN', 'IS', 'NULL', 'STARTS_WITH', 'TRUE', 'FALSE', 'ORDER', 'BY']);

/**
 * Parses a filter; an empty (or blank) query is `null`, matching every row.
 * @throws InvalidQueryError naming the unexpected token and its column, and what was expected
 */
export function parseQuery(query: string): Filter | null {
  const parser = new Parser(tokenize(query));
  if (parser.peek().kind === 'end') return null;
  const filter = parser.orExpression();
  parser.expectEnd();
  return filter;
}

class Parser {
  private index = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(): Token {
    return this.tokens[this.index]!;
  }

  orExpression(): Filter {
    let left = this.andExpression();
    while (this.isWord('OR')) {
      this.index++;
      left = { kind: 'or', left, right: this.andExpression() };
    }
    return left;
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.kind === 'end') return;
    if (this.isWord('ORDER')) throw new InvalidQueryError(`ORDER BY at column ${token.column} is not supported; results are ordered by StartTime, newest first`);
    throw this.unexpected('AND, OR or end of query');
  }

  private andExpression(): Filter {
    let left = this.notExpression();
    while (this.isWord('AND')) {
      this.index++;
      left = { kind: 'and', left, right: this.notExpression() };
    }
    return left;
  }

  private notExpression(): Filter {
    if (this.isWord('NOT')) return this.nested(() => ({ kind: 'not', operand: this.notExpression() }));
    if (this.isOp('(')) {
      return this.nested(() => {
        const inner = this.orExpression();
        if (!this.isOp(')')) throw this.unexpected("')', AND or OR");
        this.index++;
        return inner;
      });
    }
    return this.predicate();
  }

  /** Parses one level of nesting after its opening token (NOT or `(`), within {@link MAX_QUERY_DEPTH}. */
  private nested(parse: () => Filter): Filter {
    const token = this.peek();
    if (++this.depth > MAX_QUERY_DEPTH) throw new InvalidQueryError(`the query nests NOT and parentheses more than ${MAX_QUERY_DEPTH} levels deep at column ${token.column}; at most ${MAX_QUERY_DEPTH} are allowed`);
    this.index++;
    const filter = parse();
    this.depth--;
    return filter;
  }

  private predicate(): Filter {
    const token = this.peek();
    if (token.kind !== 'word' || RESERVED.has(token.text.toUpperCase())) throw this.unexpected('an attribute name, NOT or (');
    this.index++;
    const attribute = { name: token.text, column: token.column };
    const next = this.peek();
    if (next.kind === 'op' && COMPARE_OPS.has(next.text)) {
      this.index++;
      return { kind: 'compare', attribute, op: next.text as CompareOp, value: this.literal() };
    }
    if (this.isWord('STARTS_WITH')) {
      this.index++;
      return { kind: 'startsWith', attribute, prefix: this.literal() };
    }
    if (this.isWord('IS')) {
      this.index++;
      const negated = this.skipWord('NOT');
      this.expectWord('NULL');
      return { kind: 'isNull', attribute, negated };
    }
    const negated = this.skipWord('NOT');
    if (this.skipWord('IN')) return { kind: 'in', attribute, values: this.literalList(), negated };
    if (this.skipWord('BETWEEN')) {
      const low = this.literal();
      this.expectWord('AND');
      return { kind: 'between', attribute, low, high: this.literal(), negated };
    }
    throw this.unexpected(negated ? 'IN or BETWEEN' : `an operator (=, !=, >, >=, <, <=, IN, BETWEEN, IS, STARTS_WITH) after '${token.text}'`);
  }

  private literalList(): Literal[] {
    if (!this.isOp('(')) throw this.unexpected("'(' opening the IN list");
    this.index++;
    const values = [this.literal()];
    while (this.isOp(',')) {
      this.index++;
      values.push(this.literal());
    }
    if (!this.isOp(')')) throw this.unexpected("',' or ')' in the IN list");
    this.index++;
    return values;
  }

  private literal(): Literal {
    const token = this.peek();
    if (token.kind === 'string' || token.kind === 'number') {
      this.index++;
      return { kind: token.kind, value: token.value, column: token.column } as Literal;
    }
    if (token.kind === 'word' && /^(true|false)$/i.test(token.text)) {
      this.index++;
      return { kind: 'bool', value: token.text.toLowerCase() === 'true', column: token.column };
    }
    throw this.unexpected('a value (a quoted string, a number, true or false)');
  }

  private isWord(word: string): boolean {
    const token = this.peek();
    return token.kind === 'word' && token.text.toUpperCase() === word;
  }

  private isOp(op: string): boolean {
    const token = this.peek();
    return token.kind === 'op' && token.text === op;
  }

  private skipWord(word: string): boolean {
    if (!this.isWord(word)) return false;
    this.index++;
    return true;
  }

  private expectWord(word: string): void {
    if (!this.skipWord(word)) throw this.unexpected(word);
  }

  private unexpected(expected: string): InvalidQueryError {
    const token = this.peek();
    if (token.kind === 'end') return new InvalidQueryError(`unexpected end of query at column ${token.column}; expected ${expected}`);
    return new InvalidQueryError(`unexpected token '${token.text}' at column ${token.column}; expected ${expected}`);
  }
}
