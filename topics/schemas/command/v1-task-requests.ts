/**
 * Command v1: bodies sent by workers — task claims (`…Started`) and results. A result is
 * matched to its task by scheduled event id + attempt; a stale one is dropped (DESIGN.md §4).
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { arrayOf, field, optional, record } from '../avro-schema.js';
import { workflowTaskFailedCauseSchema, type WorkflowTaskFailedCause } from '../common/v1-enums.js';
import { failureSchema, payloadSchema, type Failure } from '../common/v1-records.js';
import { workflowCommandSchemas, type WorkflowCommand } from './v1-workflow-commands.js';

/** Fields that identify the task attempt a worker reports on. */
export interface TaskAttemptRef {
  scheduledEventId: number;
  attempt: number;
  identity: string;
}

/** Tag → body of the worker-facing commands. */
export interface TaskRequestMap {
  /** A worker began a workflow task (non-blocking claim). */
  WorkflowTaskStarted: TaskAttemptRef;
  /** A worker finished a workflow task with these commands. */
  WorkflowTaskCompleted: TaskAttemptRef & {
    commands: WorkflowCommand[];
    /** SDK flags first used by this task, recorded in WorkflowTaskCompleted. */
    sdkFlags: number[];
    sdkName: string | null;
    sdkVersion: string | null;
  };
  /** A workflow task failed on the worker (e.g. non-determinism, deadlock). */
  WorkflowTaskFailed: TaskAttemptRef & { cause: WorkflowTaskFailedCause; failure: Failure | null };
  /** A worker began an activity attempt (non-blocking claim). */
  ActivityTaskStarted: TaskAttemptRef;
  ActivityTaskCompleted: TaskAttemptRef & { result: Payload | null };
  ActivityTaskFailed: TaskAttemptRef & { failure: Failure; lastHeartbeatDetails: Payload | null };
  /** Progress of a running attempt; the next attempt receives the last details. */
  ActivityTaskHeartbeat: TaskAttemptRef & { details: Payload | null };
  /** The activity acknowledged a cancellation. */
  ActivityTaskCanceled: TaskAttemptRef & { details: Payload | null };
}

const attemptFields = [
  field('scheduledEventId', 'long'),
  field('attempt', 'int'),
  field('identity', 'string'),
] as const;

/** Avro records of this file's bodies, in frozen union order. */
export const taskRequestSchemas = [
  record('logbook.WorkflowTaskStartedRequest', [...attemptFields]),
  record('logbook.WorkflowTaskCompletedRequest', [
    ...attemptFields,
    field('commands', arrayOf(workflowCommandSchemas)),
    field('sdkFlags', arrayOf('int')),
    optional('sdkName', 'string'),
    optional('sdkVersion', 'string'),
  ]),
  record('logbook.WorkflowTaskFailedRequest', [
    ...attemptFields,
    field('cause', workflowTaskFailedCauseSchema),
    optional('failure', failureSchema),
  ]),
  record('logbook.ActivityTaskStartedRequest', [...attemptFields]),
  record('logbook.ActivityTaskCompletedRequest', [...attemptFields, optional('result', payloadSchema)]),
  record('logbook.ActivityTaskFailedRequest', [
    ...attemptFields,
    field('failure', failureSchema),
    optional('lastHeartbeatDetails', payloadSchema),
  ]),
  record('logbook.ActivityTaskHeartbeatRequest', [...attemptFields, optional('details', payloadSchema)]),
  record('logbook.ActivityTaskCanceledRequest', [...attemptFields, optional('details', payloadSchema)]),
] as const;
