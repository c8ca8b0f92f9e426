/**
 * The clients' checks of what a caller passes, before anything is sent: the rules of
 * `topics/validation` (names that become parts of topic names, identifiers, durations, waits)
 * applied to the options as the caller wrote them, so a message names the caller's field and
 * value (`workflowExecutionTimeout: "1000000000d"`), not the record's. Every check throws an
 * {@link InvalidArgumentError} (code `INVALID_ARGUMENT`); the gateway answers it with 400.
 * @module
 */
import type { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '../../topics/schemas/common/v1-enums.js';
import { WorkflowIdConflictPolicy as ConflictPolicies, WorkflowIdReusePolicy as ReusePolicies } from '../../topics/schemas/common/v1-enums.js';
import {
  assertValid,
  durationProblem,
  firstProblem,
  identifierProblem,
  InvalidArgumentError,
  MAX_DURATION_MS,
  MAX_REQUEST_WAIT_MS,
  namespaceProblem,
  oneOfProblem,
  optionalIdentifierProblem,
  taskQueueProblem,
  waitProblem,
} from '../../topics/validation/index.js';
import { durationToMs, type Duration } from '../workflow/duration.js';

export { InvalidArgumentError } from '../../topics/validation/index.js';

/** What every start names: where it goes, what it runs and how a taken workflow id is treated. */
export interface StartTarget {
  readonly namespace?: string;
  readonly workflowId: string;
  readonly workflowType: string;
  readonly taskQueue: string;
  readonly requestId?: string;
  readonly workflowIdConflictPolicy?: WorkflowIdConflictPolicy;
  readonly workflowIdReusePolicy?: WorkflowIdReusePolicy;
}

/**
 * Checks a start's namespace, workflow id and type, task queue, request id and policies.
 * @throws InvalidArgumentError naming the first field that breaks its rule
 */
export function checkStartTarget(start: StartTarget): void {
  assertValid(firstProblem(
    () => namespaceProblem(start.namespace ?? 'default'),
    () => identifierProblem(start.workflowId, 'workflowId'),
    () => identifierProblem(start.workflowType, 'workflowType'),
    () => taskQueueProblem(start.taskQueue),
    () => optionalIdentifierProblem(start.requestId, 'requestId'),
    () => (start.workflowIdConflictPolicy === undefined ? null : oneOfProblem(start.workflowIdConflictPolicy, 'workflowIdConflictPolicy', Object.keys(ConflictPolicies))),
    () => (start.workflowIdReusePolicy === undefined ? null : oneOfProblem(start.workflowIdReusePolicy, 'workflowIdReusePolicy', Object.keys(ReusePolicies))),
  ));
}

/**
 * Checks an identifier or name the caller gives (`workflowId`, `signalName`, `updateId`, …).
 * @throws InvalidArgumentError when it is empty, longer than 1,000 bytes or has control characters
 */
export function checkIdentifier(value: unknown, field: string): void {
  assertValid(identifierProblem(value, field));
}

/** Milliseconds of a duration as written (`'30s'`, `5000`), or a clear error. */
function parsed(value: Duration, field: string): number {
  try {
    return durationToMs(value, field);
  } catch (error) {
    if (error instanceof TypeError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

/**
 * Milliseconds of a duration option (a timeout, an interval): from 0 to 100 years.
 * @throws InvalidArgumentError naming `field` and the value as written
 */
export function durationOption(value: Duration, field: string): number {
  const ms = parsed(value, field);
  if (durationProblem(ms, field)) throw new InvalidArgumentError(`${field}: ${JSON.stringify(value)} is ${ms} ms; a duration must be from 0 to 100 years (${MAX_DURATION_MS} ms)`);
  return ms;
}

/** Like {@link durationOption}; unset stays null. */
export function optionalDurationOption(value: Duration | undefined | null, field: string): number | null {
  return value === undefined || value === null ? null : durationOption(value, field);
}

/**
 * Milliseconds a request may wait for its answer (a result, an update's outcome, a query): at most 1 h.
 * @throws InvalidArgumentError naming `field`, the value as written and the maximum
 */
export function waitOption(value: Duration, field: string): number {
  const ms = parsed(value, field);
  if (waitProblem(ms, field)) throw new InvalidArgumentError(`${field}: ${JSON.stringify(value)} is ${ms} ms; a request waits at most 1h (${MAX_REQUEST_WAIT_MS} ms), ask again to wait longer`);
  return ms;
}
