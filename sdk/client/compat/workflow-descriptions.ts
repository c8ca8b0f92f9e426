/**
 * Runs as `logbook/client` describes and lists them, in the shapes of `@temporalio/client`:
 * `status: { code, name }` with Temporal's names and codes, times as `Date`, search attributes as
 * arrays by name (and typed), and the gateway's own answer as `raw`.
 * @module
 */
import type { SearchAttributes } from '../../../topics/schemas/common/v1-records.js';
import { typedSearchAttributes, untypedSearchAttributes, type SearchAttributeInput } from '../../common/search-attribute-values.js';
import { TypedSearchAttributes } from '../../common/typed-search-attributes.js';

/** Temporal's names of a run's status. */
export type WorkflowExecutionStatusName = 'UNSPECIFIED' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TERMINATED' | 'CONTINUED_AS_NEW' | 'TIMED_OUT' | 'UNKNOWN';

/** The contract's status, Temporal's code and name for it. */
const STATUSES: Readonly<Record<string, { code: number; name: WorkflowExecutionStatusName }>> = {
  Running: { code: 1, name: 'RUNNING' },
  Completed: { code: 2, name: 'COMPLETED' },
  Failed: { code: 3, name: 'FAILED' },
  Canceled: { code: 4, name: 'CANCELLED' },
  Terminated: { code: 5, name: 'TERMINATED' },
  ContinuedAsNew: { code: 6, name: 'CONTINUED_AS_NEW' },
  TimedOut: { code: 7, name: 'TIMED_OUT' },
};

/** A typed search attribute value as the contract holds it. */
export interface TypedSearchAttribute {
  readonly type: string;
  readonly value: unknown;
}

/** A run in a listing (Temporal's `WorkflowExecutionInfo`). */
export interface WorkflowExecutionInfo {
  readonly type: string;
  readonly workflowId: string;
  readonly runId: string;
  readonly taskQueue: string;
  readonly status: { readonly code: number; readonly name: WorkflowExecutionStatusName };
  readonly historyLength: number;
  readonly startTime: Date;
  readonly executionTime?: Date;
  readonly closeTime?: Date;
  readonly memo?: Record<string, unknown>;
  /** Every attribute as an array of values (Temporal's untyped form); Datetime values as `Date`. */
  readonly searchAttributes: Record<string, unknown[]>;
  /** Every attribute with its type, to read by key (`typedSearchAttributes.get(key)`). */
  readonly typedSearchAttributes: TypedSearchAttributes;
  /** The gateway's answer this was made from. */
  readonly raw: unknown;
}

/** One run described (Temporal's `WorkflowExecutionDescription`). */
export type WorkflowExecutionDescription = WorkflowExecutionInfo;

/** The fields of a visibility row or an execution info, as the gateway answers them. */
interface RunFields {
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  status: string;
  startTime: number | string;
  executionTime?: number | string | null;
  closeTime?: number | string | null;
  historyLength?: number;
  lastEventId?: number;
  memo?: unknown;
  searchAttributes?: Record<string, TypedSearchAttribute>;
}

const dateOf = (value: number | string | null | undefined): Date | undefined => (value === null || value === undefined ? undefined : new Date(value));

/** A listed row or described run in Temporal's shape. */
export function executionInfoOf(fields: RunFields, extra: { memo?: unknown; searchAttributes?: Record<string, TypedSearchAttribute> | undefined }, raw: unknown): WorkflowExecutionInfo {
  const typed = extra.searchAttributes ?? fields.searchAttributes ?? {};
  const memo = extra.memo ?? fields.memo;
  const executionTime = dateOf(fields.executionTime);
  const closeTime = dateOf(fields.closeTime);
  return {
    type: fields.workflowType,
    workflowId: fields.workflowId,
    runId: fields.runId,
    taskQueue: fields.taskQueue,
    status: STATUSES[fields.status] ?? { code: 0, name: 'UNKNOWN' },
    historyLength: fields.historyLength ?? fields.lastEventId ?? 0,
    startTime: new Date(fields.startTime),
    ...(executionTime ? { executionTime } : {}),
    ...(closeTime ? { closeTime } : {}),
    ...(memo && typeof memo === 'object' ? { memo: memo as Record<string, unknown> } : {}),
    searchAttributes: untypedSearchAttributes(typed),
    typedSearchAttributes: TypedSearchAttributes.fromContract(typed as SearchAttributes),
    raw,
  };
}

/**
 * Search attributes given at start, typed (see `typedSearchAttributes`); an empty array at start
 * sets nothing and is refused.
 * @throws TypeError for an empty array or values of mixed kinds
 */
export function typedSearchAttributesAtStart(input: Record<string, unknown> | undefined): Record<string, TypedSearchAttribute> | undefined {
  if (input === undefined) return undefined;
  for (const [name, given] of Object.entries(input)) {
    if (Array.isArray(given) && given.length === 0) throw new TypeError(`search attribute '${name}': an empty array says nothing to set; leave the attribute out`);
  }
  return typedSearchAttributes(input as Record<string, SearchAttributeInput>) as Record<string, TypedSearchAttribute>;
}
