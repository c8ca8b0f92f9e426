/**
 * The attributes a filter can name: the system attributes of every run (typed, read from the
 * row's fields) and the run's custom search attributes (typed by the value stored).
 * @module
 */
import type { VisibilityRow } from '../../topics/schemas/visibility-row/index.js';
import { InvalidQueryError } from './invalid-query.js';
import type { AttributeRef } from './parser.js';

/** The type a comparison is checked against (Temporal's indexed value types). */
export type AttributeType = 'Keyword' | 'Text' | 'Int' | 'Double' | 'Bool' | 'Datetime' | 'KeywordList';

/** A value read from a row: its type and value (datetimes as epoch milliseconds), or null when absent. */
export type AttributeValue = { type: AttributeType; value: string | number | boolean | string[] } | null;

/** Every status a run can have, as `ExecutionStatus` values are written. */
export const EXECUTION_STATUSES = ['Running', 'Completed', 'Failed', 'Canceled', 'Terminated', 'ContinuedAsNew', 'TimedOut'] as const;

interface SystemAttribute {
  type: AttributeType;
  read: (row: VisibilityRow) => string | number | null;
}

/** The system attributes, by the names Temporal gives them. */
export const SYSTEM_ATTRIBUTES: Readonly<Record<string, SystemAttribute>> = {
  WorkflowId: { type: 'Keyword', read: (r) => r.workflowId },
  WorkflowType: { type: 'Keyword', read: (r) => r.workflowType },
  RunId: { type: 'Keyword', read: (r) => r.runId },
  TaskQueue: { type: 'Keyword', read: (r) => r.taskQueue },
  ExecutionStatus: { type: 'Keyword', read: (r) => r.status },
  StartTime: { type: 'Datetime', read: (r) => r.startTime },
  CloseTime: { type: 'Datetime', read: (r) => r.closeTime },
  ExecutionTime: { type: 'Datetime', read: (r) => r.executionTime },
  HistoryLength: { type: 'Int', read: (r) => r.historyLength },
};

/**
 * Checks a name that is not a system attribute: a system name in the wrong case is refused
 * (it would otherwise silently be read as a custom attribute no run has).
 * @throws InvalidQueryError for a misspelt system attribute
 */
export function checkAttributeName(ref: AttributeRef): void {
  if (SYSTEM_ATTRIBUTES[ref.name]) return;
  const system = Object.keys(SYSTEM_ATTRIBUTES).find((n) => n.toLowerCase() === ref.name.toLowerCase());
  if (system) throw new InvalidQueryError(`unknown attribute '${ref.name}' at column ${ref.column}; did you mean '${system}'?`);
}

/** The attribute's type and value in `row`. */
export function readAttribute(row: VisibilityRow, name: string): AttributeValue {
  const system = SYSTEM_ATTRIBUTES[name];
  if (system) {
    const value = system.read(row);
    return value === null ? null : { type: system.type, value };
  }
  const custom = row.searchAttributes[name];
  return custom ? { type: custom.type, value: custom.value } : null;
}
