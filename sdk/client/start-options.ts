import { randomUUID } from 'node:crypto';
import type { DataConverter } from '../../topics/payload/index.js';
import type { StartWorkflowExecutionRequest } from '../../topics/schemas/command/index.js';
import type { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '../../topics/schemas/common/v1-enums.js';
import { optionalDurationToMs, type Duration } from '../workflow/duration.js';
import type { Memo, SearchAttributes } from '../../topics/schemas/common/v1-records.js';
import { checkedSearchAttributes } from './search-attributes.js';
import { workflowRetryPolicy, type WorkflowRetryOptions } from './workflow-retry-policy.js';

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
  /** Non-indexed facts about the run, each value encoded by the data converter; shown by describe and list, read by `workflowInfo().memo`. */
  readonly memo?: Readonly<Record<string, unknown>>;
  /** Retries failed (or run-timed-out) runs as new runs of the same workflow id (README "Retry policy of a workflow"). */
  readonly retryPolicy?: WorkflowRetryOptions;
  /** Runs the workflow on a cron schedule (UTC; 5 fields, or 6 with leading seconds; README "Cron workflows"). */
  readonly cronSchedule?: string;
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
    retryPolicy: workflowRetryPolicy(options.retryPolicy),
    cronSchedule: cronScheduleOf(options.cronSchedule),
    workflowStartDelayMs: null,
    memo: memoPayloads(options.memo, converter),
    searchAttributes: checkedSearchAttributes(options.searchAttributes),
    header: {},
    parent: null,
  };
}

/** The cron schedule as sent (the engine parses it); null when unset. Throws TypeError when it is not a string. */
function cronScheduleOf(cronSchedule: unknown): string | null {
  if (cronSchedule === undefined || cronSchedule === null) return null;
  if (typeof cronSchedule !== 'string' || cronSchedule.trim() === '') throw new TypeError("'cronSchedule' must be a non-empty cron expression");
  return cronSchedule;
}

/** The memo encoded field by field. Throws TypeError when `memo` is not a plain object. */
function memoPayloads(memo: StartOptions['memo'], converter: DataConverter): Memo {
  if (memo === undefined || memo === null) return {};
  if (typeof memo !== 'object' || Array.isArray(memo)) throw new TypeError("'memo' must be an object of named values");
  return Object.fromEntries(Object.entries(memo).map(([key, value]) => [key, converter.toPayload(value)]));
}
