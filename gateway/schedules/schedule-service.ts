/**
 * Schedule operations on an engine node: each is a start, a signal or a query of the schedule's
 * scheduler workflow (`sdk/schedules/scheduler-workflow.ts`), with the API's errors: 400 for a bad
 * definition naming the field or for plaintext action arguments aimed at a codec-required queue,
 * 404 for an unknown (or deleted) schedule, 409 for an id in use.
 * @module
 */
import { describePlaintext, findPlaintextPayload, listRequiresCodec, PLAINTEXT_PAYLOAD_REFUSED } from '../../processors/history/codec-required.js';
import { DEFAULT_QUERY_TIMEOUT_MS } from '../../sdk/client/query-sender.js';
import { withinWaitAndGrace } from '../long-polls.js';
import { LogbookError } from '../../topics/errors.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import { identifierProblem, pathSegmentProblem } from '../../topics/validation/index.js';
import {
  instantOf,
  overlapPolicyOf,
  scheduleDefinitionOf,
  ScheduleDefinitionError,
  type OverlapPolicy,
  type ScheduleDefinition,
} from '../../sdk/schedules/schedule-definition.js';
import {
  SCHEDULER_DESCRIBE_QUERY,
  SCHEDULER_TASK_QUEUE,
  SCHEDULER_WORKFLOW_ID_PREFIX,
  SCHEDULER_WORKFLOW_TYPE,
  SchedulerSignal,
  schedulerWorkflowId,
  type BackfillRequest,
  type ScheduleDescription,
} from '../../sdk/schedules/scheduler-protocol.js';
import type { Engine } from '../engine.js';
import { HttpError } from '../http-errors.js';
import { listExecutions, MAX_PAGE_SIZE } from '../visibility-listing.js';

/** A schedule as listed. */
export interface ScheduleListEntry {
  readonly scheduleId: string;
  /** The workflow type its actions start (as created). */
  readonly workflowType: string | null;
  /** When the schedule was created (RFC 3339). */
  readonly createdAt: string;
}

/** Creates, reads and changes the schedules of an engine's namespaces. */
export class ScheduleService {
  constructor(private readonly engine: Engine) {}

  /** Creates a schedule from its JSON definition (`scheduleId` in it); 409 if the id is in use. */
  async create(namespace: string, body: unknown): Promise<{ scheduleId: string }> {
    const scheduleId = scheduleIdOf((body as { scheduleId?: unknown } | null)?.scheduleId);
    const schedule = checked(() => scheduleDefinitionOf(body, scheduleId));
    // Scheduler workers run for registered namespaces only: elsewhere the schedule would never run.
    if (!this.engine.namespaces.get(namespace)) {
      throw new HttpError(404, 'NamespaceNotFound', `namespace ${namespace} is not registered: register it (POST /api/v1/namespaces) before creating schedules in it`);
    }
    this.refusePlaintextAction(namespace, scheduleId, schedule);
    const reply = await this.engine.client.start({
      namespace,
      workflowId: schedulerWorkflowId(scheduleId),
      workflowType: SCHEDULER_WORKFLOW_TYPE,
      taskQueue: SCHEDULER_TASK_QUEUE,
      args: [{ scheduleId, schedule }],
      workflowIdConflictPolicy: 'Fail',
      workflowIdReusePolicy: 'AllowDuplicate',
      memo: { workflowType: schedule.action.workflowType },
    });
    if (reply.kind === 'Error') {
      if (reply.failure?.code === 'WorkflowExecutionAlreadyStarted') throw new HttpError(409, 'ScheduleAlreadyRunning', `schedule ${scheduleId} already exists in namespace ${namespace}`);
      throw new LogbookError(reply.failure?.code ?? 'ENGINE_ERROR', reply.failure?.message ?? 'the engine refused the schedule');
    }
    return { scheduleId };
  }

  /** The schedule's definition and info, answered by its scheduler; 404 if unknown or deleted. */
  async describe(namespace: string, scheduleId: string): Promise<ScheduleDescription> {
    let description: ScheduleDescription;
    try {
      const workflowId = schedulerWorkflowId(scheduleId);
      // Like any query over HTTP: answered within its wait plus a grace, or 503 while a failover holds it.
      description = await withinWaitAndGrace(this.engine, { namespace, workflowId }, DEFAULT_QUERY_TIMEOUT_MS, () =>
        this.engine.client.query<ScheduleDescription>(workflowId, SCHEDULER_DESCRIBE_QUERY, [], { namespace }));
    } catch (error) {
      if (error instanceof LogbookError && error.code === 'WorkflowNotFound') throw notFound(namespace, scheduleId);
      throw error;
    }
    if (description.deleted) throw notFound(namespace, scheduleId);
    return description;
  }

  /** The schedules of a namespace (their scheduler runs that are open), newest first. */
  async list(namespace: string): Promise<ScheduleListEntry[]> {
    const query = `WorkflowType = '${SCHEDULER_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running'`;
    const entries: ScheduleListEntry[] = [];
    let nextPageToken: string | null = null;
    do {
      const page = await listExecutions(this.engine, { namespace, query, pageSize: MAX_PAGE_SIZE, ...(nextPageToken ? { nextPageToken } : {}) }, false);
      for (const run of page.executions) {
        if (!run.workflowId.startsWith(SCHEDULER_WORKFLOW_ID_PREFIX)) continue;
        const memo = (run.memo ?? {}) as { workflowType?: string };
        entries.push({ scheduleId: run.workflowId.slice(SCHEDULER_WORKFLOW_ID_PREFIX.length), workflowType: memo.workflowType ?? null, createdAt: run.startTime });
      }
      nextPageToken = page.nextPageToken;
    } while (nextPageToken);
    return entries;
  }

  /** Pauses the schedule: no scheduled actions until unpaused (triggers and backfills still act). */
  pause(namespace: string, scheduleId: string, note?: unknown): Promise<void> {
    return this.signal(namespace, scheduleId, SchedulerSignal.pause, [noteOf(note)]);
  }

  /** Resumes scheduled actions from now on (the ones missed while paused are not taken). */
  unpause(namespace: string, scheduleId: string, note?: unknown): Promise<void> {
    return this.signal(namespace, scheduleId, SchedulerSignal.unpause, [noteOf(note)]);
  }

  /** Takes an action now, under `overlap` (default: the schedule's policy). */
  trigger(namespace: string, scheduleId: string, overlap?: unknown): Promise<void> {
    return this.signal(namespace, scheduleId, SchedulerSignal.trigger, [optionalOverlap(overlap, 'overlap')]);
  }

  /** Takes the actions the spec had in each range (`{ startAt, endAt, overlap? }`, both ends included). */
  backfill(namespace: string, scheduleId: string, body: unknown): Promise<void> {
    const source = body as { backfills?: unknown } | null;
    const items = Array.isArray(source?.backfills) ? source.backfills : [body];
    const requests = items.map((item, i) => backfillOf(item, Array.isArray(source?.backfills) ? `backfills[${i}]` : 'backfill'));
    return this.signal(namespace, scheduleId, SchedulerSignal.backfill, [requests]);
  }

  /** Replaces spec, action and policies; the state (paused, note, remaining actions) is kept unless given. */
  async update(namespace: string, scheduleId: string, body: unknown): Promise<void> {
    const next = checked(() => scheduleDefinitionOf(body, scheduleId));
    this.refusePlaintextAction(namespace, scheduleId, next);
    const current = await this.describe(namespace, scheduleId);
    const keepState = (body as { state?: unknown }).state === undefined;
    const schedule: ScheduleDefinition = keepState ? { ...next, state: current.schedule.state } : next;
    await this.signal(namespace, scheduleId, SchedulerSignal.update, [schedule]);
  }

  /** Deletes the schedule: its scheduler ends; runs it started are left alone. */
  delete(namespace: string, scheduleId: string): Promise<void> {
    return this.signal(namespace, scheduleId, SchedulerSignal.delete, []);
  }

  /**
   * Refuses (400 `PlaintextPayloadRefused`, naming the rule) an action whose arguments or memo would
   * be plaintext payloads on a codec-required target queue. The history shard would refuse each
   * start the schedule makes, but only at firing time, after the values had been stored in clear
   * in the scheduler's history (its own queue holds the definition as JSON). They are encoded here
   * as the scheduler's start encodes them: a JSON value is `json/plain`, a `{ "$payload": … }`
   * envelope is the payload it holds.
   */
  private refusePlaintextAction(namespace: string, scheduleId: string, schedule: ScheduleDefinition): void {
    const { taskQueue, args, memo } = schedule.action;
    if (!listRequiresCodec(this.engine.namespaces.get(namespace)?.codecRequiredTaskQueues ?? [], taskQueue)) return;
    const encoded = checked(() => {
      try {
        const toPayload = (value: unknown) => this.engine.dataConverter.toPayload(value);
        return { action: { args: args.map(toPayload), memo: Object.fromEntries(Object.entries(memo ?? {}).map(([key, value]) => [key, toPayload(value)])) } };
      } catch (error) {
        throw new ScheduleDefinitionError(`'action.args' or 'action.memo' holds a value that is not a payload: ${(error as Error).message}`);
      }
    });
    const found = findPlaintextPayload(encoded);
    if (found) throw new HttpError(400, PLAINTEXT_PAYLOAD_REFUSED, describePlaintext(namespace, taskQueue, `the action of schedule ${scheduleId} (started at every firing)`, found));
  }

  private async signal(namespace: string, scheduleId: string, signalName: string, args: unknown[]): Promise<void> {
    const body = {
      type: 'SignalWorkflowExecution' as const,
      signalName,
      input: args.map((a) => this.engine.dataConverter.toPayload(a)),
      identity: 'schedule-api',
      header: {},
      externalInitiator: null,
      childWorkflowOnly: false,
    };
    const reply: Reply | undefined = await this.engine.client.send(this.engine.client.envelope(namespace, schedulerWorkflowId(scheduleId), body), { awaitReply: true });
    if (!reply) throw new LogbookError('REPLY_TIMEOUT', 'the engine did not answer');
    if (reply.kind !== 'Error') return;
    const code = reply.failure?.code;
    if (code === 'WorkflowNotFound' || code === 'WorkflowClosed') throw notFound(namespace, scheduleId);
    throw new LogbookError(code ?? 'ENGINE_ERROR', reply.failure?.message ?? 'the engine refused the request');
  }
}

function notFound(namespace: string, scheduleId: string): HttpError {
  return new HttpError(404, 'ScheduleNotFound', `schedule ${scheduleId} does not exist in namespace ${namespace}`);
}

/** Runs a definition check; its error becomes a 400 naming the field. */
function checked<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ScheduleDefinitionError) throw new HttpError(400, 'INVALID_SCHEDULE', error.message);
    throw error;
  }
}

function scheduleIdOf(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new HttpError(400, 'INVALID_SCHEDULE', "'scheduleId' must be a non-empty string");
  const dots = pathSegmentProblem(value, 'scheduleId');
  if (dots !== null) throw new HttpError(400, 'INVALID_SCHEDULE', dots);
  // The schedule is a workflow: its id must pass the workflow id rule.
  const problem = identifierProblem(schedulerWorkflowId(value), `scheduleId (as the workflow id '${SCHEDULER_WORKFLOW_ID_PREFIX}…')`);
  if (problem !== null) throw new HttpError(400, 'INVALID_SCHEDULE', problem);
  return value;
}

function noteOf(note: unknown): string | null {
  if (note === undefined || note === null) return null;
  if (typeof note !== 'string') throw new HttpError(400, 'INVALID_SCHEDULE', "'note' must be a string");
  return note;
}

function optionalOverlap(value: unknown, what: string): OverlapPolicy | null {
  return value === undefined || value === null ? null : checked(() => overlapPolicyOf(value, what, 'SKIP'));
}

function backfillOf(item: unknown, what: string): BackfillRequest {
  return checked(() => {
    if (item === null || typeof item !== 'object') throw new ScheduleDefinitionError(`'${what}' must be an object with startAt and endAt`);
    const { startAt, endAt, overlap } = item as Record<string, unknown>;
    const startAtMs = instantOf(startAt, `${what}.startAt`);
    const endAtMs = instantOf(endAt, `${what}.endAt`);
    if (endAtMs < startAtMs) throw new ScheduleDefinitionError(`'${what}.endAt' is before '${what}.startAt'`);
    return { startAtMs, endAtMs, overlap: optionalOverlap(overlap, `${what}.overlap`) };
  });
}
