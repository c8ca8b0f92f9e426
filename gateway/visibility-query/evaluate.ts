/**
 * Compiles a parsed filter into a predicate over visibility rows. System attributes are checked
 * when compiling; a custom attribute's type is that of the value the run stored, so a comparison
 * that does not fit it (a number against a keyword) is refused when a row holding it is met.
 * @module
 */
import type { VisibilityRow } from '../../topics/schemas/visibility-row/index.js';
import { checkAttributeName, EXECUTION_STATUSES, readAttribute, SYSTEM_ATTRIBUTES, type AttributeType, type AttributeValue } from './attributes.js';
import { InvalidQueryError } from './invalid-query.js';
import { parseQuery, type AttributeRef, type CompareOp, type Filter, type Literal } from './parser.js';

/** Whether a row matches. @throws InvalidQueryError when a row's custom attribute does not fit the comparison */
export type RowPredicate = (row: VisibilityRow) => boolean;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Parses and checks `query`; the predicate every row is tested with. A blank query matches all.
 * @throws InvalidQueryError naming the problem and its column
 */
export function compileQuery(query: string): RowPredicate {
  const filter = parseQuery(query);
  if (!filter) return () => true;
  check(filter);
  return (row) => matches(filter, row);
}

/** Compile-time checks: attribute names, and literals against the system attributes' types. */
function check(filter: Filter): void {
  switch (filter.kind) {
    case 'and':
    case 'or':
      check(filter.left);
      check(filter.right);
      return;
    case 'not':
      check(filter.operand);
      return;
    default: {
      checkAttributeName(filter.attribute);
      const system = SYSTEM_ATTRIBUTES[filter.attribute.name];
      if (!system) return;
      const probe = { type: system.type, value: system.type === 'Keyword' ? '' : 0 };
      if (filter.kind !== 'isNull') literalsOf(filter).forEach((l) => operand(probe, filter.kind === 'compare' ? filter.op : filter.kind, l, filter.attribute));
      if (filter.attribute.name === 'ExecutionStatus') {
        for (const l of literalsOf(filter)) {
          if (!(EXECUTION_STATUSES as readonly unknown[]).includes(l.value)) {
            throw new InvalidQueryError(`invalid ExecutionStatus '${String(l.value)}' at column ${l.column}; expected one of ${EXECUTION_STATUSES.join(', ')}`);
          }
        }
      }
    }
  }
}

function literalsOf(filter: Filter): Literal[] {
  switch (filter.kind) {
    case 'compare': return [filter.value];
    case 'in': return filter.values;
    case 'between': return [filter.low, filter.high];
    case 'startsWith': return [filter.prefix];
    default: return [];
  }
}

function matches(filter: Filter, row: VisibilityRow): boolean {
  switch (filter.kind) {
    case 'and': return matches(filter.left, row) && matches(filter.right, row);
    case 'or': return matches(filter.left, row) || matches(filter.right, row);
    case 'not': return !matches(filter.operand, row);
    case 'isNull': return (readAttribute(row, filter.attribute.name) === null) !== filter.negated;
    default: break;
  }
  const stored = readAttribute(row, filter.attribute.name);
  // Like SQL's NULL: a run without the attribute matches no comparison (nor its negation).
  if (stored === null) return false;
  switch (filter.kind) {
    case 'compare': return compare(stored, filter.op, operand(stored, filter.op, filter.value, filter.attribute));
    case 'in': return filter.values.some((v) => compare(stored, '=', operand(stored, 'in', v, filter.attribute))) !== filter.negated;
    case 'between': {
      const low = operand(stored, 'between', filter.low, filter.attribute);
      const high = operand(stored, 'between', filter.high, filter.attribute);
      return (compare(stored, '>=', low) && compare(stored, '<=', high)) !== filter.negated;
    }
    case 'startsWith': {
      const prefix = operand(stored, 'startsWith', filter.prefix, filter.attribute);
      return typeof stored.value === 'string' && stored.value.startsWith(String(prefix));
    }
  }
}

type Operation = CompareOp | 'in' | 'between' | 'startsWith';

const ALLOWED: Record<AttributeType, readonly Operation[]> = {
  Keyword: ['=', '!=', 'in', 'startsWith'],
  KeywordList: ['=', '!=', 'in'],
  Text: ['=', '!='],
  Bool: ['=', '!='],
  Int: ['=', '!=', '>', '>=', '<', '<=', 'in', 'between'],
  Double: ['=', '!=', '>', '>=', '<', '<=', 'in', 'between'],
  Datetime: ['=', '!=', '>', '>=', '<', '<=', 'in', 'between'],
};

const OPERATION_NAMES: Record<Operation, string> = { '=': '=', '!=': '!=', '>': '>', '>=': '>=', '<': '<', '<=': '<=', in: 'IN', between: 'BETWEEN', startsWith: 'STARTS_WITH' };

/**
 * The literal as a value comparable with the stored one.
 * @throws InvalidQueryError when the operation or the literal does not fit the attribute's type
 */
function operand(stored: NonNullable<AttributeValue>, op: Operation, literal: Literal, ref: AttributeRef): string | number | boolean {
  const where = `'${ref.name}' (${stored.type}) at column ${ref.column}`;
  if (!ALLOWED[stored.type].includes(op)) throw new InvalidQueryError(`operator ${OPERATION_NAMES[op]} is not supported on ${where}`);
  const wrong = (expected: string) => new InvalidQueryError(`${where} is compared with ${literal.kind} ${JSON.stringify(literal.value)} at column ${literal.column}; expected ${expected}`);
  switch (stored.type) {
    case 'Keyword':
    case 'KeywordList':
    case 'Text':
      if (literal.kind !== 'string') throw wrong('a quoted string');
      return literal.value;
    case 'Int':
    case 'Double':
      if (literal.kind !== 'number') throw wrong('a number');
      return literal.value;
    case 'Bool':
      if (literal.kind !== 'bool') throw wrong('true or false');
      return literal.value;
    case 'Datetime': {
      if (literal.kind !== 'string' || !RFC3339.test(literal.value) || Number.isNaN(Date.parse(literal.value))) throw wrong("an RFC 3339 datetime such as '2026-01-31T12:00:00Z'");
      return Date.parse(literal.value);
    }
  }
}

/** `stored op value`; KeywordList `=` means "contains", Text `=` "contains the phrase, ignoring case". */
function compare(stored: NonNullable<AttributeValue>, op: CompareOp, value: string | number | boolean): boolean {
  if (stored.type === 'KeywordList') {
    const contains = (stored.value as string[]).includes(value as string);
    return op === '=' ? contains : !contains;
  }
  if (stored.type === 'Text') {
    const contains = (stored.value as string).toLowerCase().includes((value as string).toLowerCase());
    return op === '=' ? contains : !contains;
  }
  const a = stored.value as string | number | boolean;
  switch (op) {
    case '=': return a === value;
    case '!=': return a !== value;
    case '>': return a > value;
    case '>=': return a >= value;
    case '<': return a < value;
    case '<=': return a <= value;
  }
}
