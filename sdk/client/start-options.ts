import { randomUUID } from 'node:crypto';
import type { DataConverter } from '../../topics/payload/index.js';
import type { StartWorkflowExecutionRequest } from '../../topics/schemas/command/index.js';
import type { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '../../topics/schemas/common/v1-enums.js';
import type { Duration } from '../workflow/duration.js';
import { assertValid, startRequestProblem } from '../../topics/validation/index.js';
import { checkStartTarget, InvalidArgumentError, optionalDurationOption } from './option-rules.js';
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

/**
 * The start command body for these options; the run id is chosen here, by the client.
 * @throws InvalidArgumentError naming the field that breaks its rule: a namespace or task queue
 *   that cannot be part of a topic name, a bad id or type, an unknown policy, a duration that is
 *   not one or exceeds 100 years, a malformed retry policy, search attribute, memo or cron schedule
 */
export function startRequest(options: StartOptions, converter: DataConverter, identity: string): StartWorkflowExecutionRequest {
  checkStartTarget(options);
  let request: StartWorkflowExecutionRequest;
  try {
    request = unchecked(options, converter, identity);
  } catch (error) {
    // The option parsers (retry policy, search attributes, memo, cron) report a malformed value as a TypeError.
    if (error instanceof TypeError) throw new InvalidArgumentError(error.message);
    throw error;
  }
  assertValid(startRequestProblem(options.namespace ?? 'default', options.workflowId, request));
  return request;
}

function unchecked(options: StartOptions, converter: DataConverter, identity: string): StartWorkflowExecutionRequest {
  return {
    runId: randomUUID(),
    workflowType: options.workflowType,
    taskQueue: options.taskQueue,
    input: (options.args ?? []).map((a) => converter.toPayload(a)),
    identity,
    workflowIdConflictPolicy: options.workflowIdConflictPolicy ?? 'Fail',
    workflowIdReusePolicy: options.workflowIdReusePolicy ?? 'AllowDuplicate',
    workflowExecutionTimeoutMs: optionalDurationOption(options.workflowExecutionTimeout, 'workflowExecutionTimeout'),
    workflowRunTimeoutMs: optionalDurationOption(options.workflowRunTimeout, 'workflowRunTimeout'),
    workflowTaskTimeoutMs: optionalDurationOption(options.workflowTaskTimeout, 'workflowTaskTimeout'),
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
