import { randomUUID } from 'node:crypto';
import type { DataConverter } from '../../topics/payload/index.js';
import type { StartWorkflowExecutionRequest } from '../../topics/schemas/command/index.js';
import type { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '../../topics/schemas/common/v1-enums.js';
import { optionalDurationToMs, type Duration } from '../workflow/duration.js';
import type { SearchAttributes } from '../../topics/schemas/common/v1-records.js';
import { checkedSearchAttributes } from './search-attributes.js';

/** How to start a workflow; durations are milliseconds or strings like `'30s'`, `'48h'`. */
export interface StartOptions {
  readonly namespace?: string;
  readonly workflowId: string;
  readonly workflowType: string;
  readonly taskQueue: string;
  readonly args?: readonly unknown[];
  /** Deduplicates retries of the same start; default a fresh id. */
  readonly requestId?: string;
  /** When a run with this id is open: Fail (default), UseExisting, TerminateExisting. */
  readonly workflowIdConflictPolicy?: WorkflowIdConflictPolicy;
  /** When the last run is closed: AllowDuplicate (default), AllowDuplicateFailedOnly, RejectDuplicate. */
  readonly workflowIdReusePolicy?: WorkflowIdReusePolicy;
  readonly workflowExecutionTimeout?: Duration;
  readonly workflowRunTimeout?: Duration;
  readonly workflowTaskTimeout?: Duration;
  /** Typed search attributes the run starts with, listed and filtered on (see README Visibility). */
  readonly searchAttributes?: SearchAttributes;
}

/** The start command body for these options; the run id is chosen here, by the client. Throws TypeError for a bad duration or search attribute. */
export function startRequest(options: StartOptions, converter: DataConverter, identity: string): StartWorkflowExecutionRequest {
  return {
    runId: randomUUID(),
    workflowType: options.workflowType,
    taskQueue: options.taskQueue,
    input: (options.args ?? []).map((a) => converter.toPayload(a)),
    identity,
    workflowIdConflictPolicy: options.workflowIdConflictPolicy ?? 'Fail',
    workflowIdReusePolicy: options.workflowIdReusePolicy ?? 'AllowDuplicate',
    workflowExecutionTimeoutMs: optionalDurationToMs(options.workflowExecutionTimeout, 'workflowExecutionTimeout'),
    workflowRunTimeoutMs: optionalDurationToMs(options.workflowRunTimeout, 'workflowRunTimeout'),
    workflowTaskTimeoutMs: optionalDurationToMs(options.workflowTaskTimeout, 'workflowTaskTimeout'),
    retryPolicy: null,
    cronSchedule: null,
    workflowStartDelayMs: null,
    memo: {},
    searchAttributes: checkedSearchAttributes(options.searchAttributes),
    header: {},
    parent: null,
  };
}
