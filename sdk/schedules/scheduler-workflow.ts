/**
 * The scheduler workflow: one run (chain) per schedule, id `logbook-schedule/<scheduleId>`, on the
 * internal task queue every engine node polls. Its state lives in its history, so a schedule is
 * durable state on the shards: timers wait for the next action time, signals carry pause /
 * unpause / trigger / backfill / update / delete, the describe query answers from its state, and
 * starts go through an activity whose request id is derived from the schedule, so a retried start
 * is answered with the run it already started. It continues as new every few dozen wake-ups so its
 * history stays small. Bundled into the workflow sandbox: imports only the workflow API and pure
 * modules.
 * @module
 */
import { condition, continueAsNew, defineQuery, defineSignal, proxyActivities, setHandler, sideEffect, workflowInfo } from '../workflow/index.js';
import { isScheduleDefinition, OVERLAP_POLICIES, type OverlapPolicy, type ScheduleDefinition, type ScheduleSpec, type ScheduleState } from './schedule-definition.js';
import { actionTimesBetween, dependsOnTimeZoneRules, jitterOf, nextActionTime } from './schedule-times.js';
import {
  SCHEDULER_DESCRIBE_QUERY,
  SchedulerSignal,
  type BackfillRequest,
  type RunRef,
  type ScheduleActionResult,
  type ScheduleDescription,
  type SchedulerActivities,
} from './scheduler-protocol.js';

/** Wake-ups per run before the scheduler continues as new (each costs a dozen events or so). */
const WAKES_PER_RUN = 50;
/** Actions taken from the backlog per wake-up after a long outage (the rest on the next ones). */
const MAX_DUE_PER_WAKE = 1000;
/** Buffered starts kept at most (Temporal's limit); more are dropped and counted as skipped. */
const MAX_BUFFERED = 1000;
const RECENT_ACTIONS_KEPT = 10;
/** Longest a watch of the runs blocking the buffer lasts before the scheduler looks again. */
const WATCH_MS = 60_000;
/** When the buffer waits and no watch runs (a terminated run was just replaced): look again after this. */
const RETRY_BUFFER_MS = 1000;

/** A start waiting to be taken. */
interface BufferedStart {
  readonly nominalMs: number;
  readonly overlap: OverlapPolicy;
}

/** What the scheduler carries from run to run of its chain. */
export interface SchedulerCarry {
  createdAtMs: number;
  updatedAtMs: number | null;
  /** Nominal times up to here are dealt with. */
  lastProcessedMs: number;
  nextStartSeq: number;
  numActions: number;
  missedCatchupWindow: number;
  skippedOverlap: number;
  /** Actions whose start the engine refused (not overlaps), and why the last one was; absent in carries of older schedulers. */
  failedStarts?: number;
  lastFailedStart?: string | null;
  recentActions: ScheduleActionResult[];
  running: RunRef[];
  /** Runs a CANCEL_OTHER start already asked to cancel. */
  cancelRequested: string[];
  buffer: BufferedStart[];
}

/** The scheduler's input: the schedule and, after continue-as-new, what the chain carries. */
export interface SchedulerInput {
  readonly scheduleId: string;
  readonly schedule: ScheduleDefinition;
  readonly carry?: SchedulerCarry;
  /** Wake-ups per run before continuing as new; default 50 (tests lower it to see the hand-over). */
  readonly wakesPerRun?: number;
}

/** Pauses the scheduled actions, with a note (null: keep the note). */
export const pauseSignal = defineSignal<[note: string | null]>(SchedulerSignal.pause);
/** Resumes the scheduled actions from now on, with a note (null: keep the note). */
export const unpauseSignal = defineSignal<[note: string | null]>(SchedulerSignal.unpause);
/** Takes an action now under this overlap policy (null: the schedule's). */
export const triggerSignal = defineSignal<[overlap: OverlapPolicy | null]>(SchedulerSignal.trigger);
/** Takes the actions the spec had in past ranges. */
export const backfillSignal = defineSignal<[requests: BackfillRequest[]]>(SchedulerSignal.backfill);
/** Replaces the schedule (checked by the gateway; a malformed one is ignored). */
export const updateSignal = defineSignal<[schedule: ScheduleDefinition]>(SchedulerSignal.update);
/** Ends the scheduler. */
export const deleteSignal = defineSignal(SchedulerSignal.delete);
/** Answers the schedule's definition and info. */
export const describeQuery = defineQuery<ScheduleDescription>(SCHEDULER_DESCRIBE_QUERY);

const activities = proxyActivities<SchedulerActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '1s', maximumInterval: '10s' },
});
const watches = proxyActivities<SchedulerActivities>({
  startToCloseTimeout: WATCH_MS + 30_000,
  retry: { initialInterval: '1s', maximumInterval: '10s' },
});

/** Runs a schedule until it is deleted. */
/**
 * Times of a spec whose time-zone rules come with the runtime (`dependsOnTimeZoneRules`) are
 * recorded as side effects, so a replay on a runtime with other rules takes the times the run
 * took; UTC-only specs compute them afresh and add nothing to history.
 */
function timesOf<T>(spec: ScheduleSpec, compute: () => T): T {
  return dependsOnTimeZoneRules(spec) ? sideEffect(compute) : compute();
}

export async function logbookScheduler(input: SchedulerInput): Promise<string> {
  const { scheduleId } = input;
  const namespace = workflowInfo().namespace;
  const startKey = workflowInfo().firstExecutionRunId;
  let schedule = input.schedule;
  const carry: SchedulerCarry = input.carry ?? freshCarry(Date.now());
  let deleted = false;
  /** Counts what should wake the scheduler's wait: signals, and the end of a watch. */
  let changes = 0;
  let watching = false;

  const setState = (change: Partial<ScheduleState>) => {
    schedule = { ...schedule, state: { ...schedule.state, ...change } };
    carry.updatedAtMs = Date.now();
    changes++;
  };
  const enqueue = (start: BufferedStart) => {
    if (carry.buffer.length >= MAX_BUFFERED) carry.skippedOverlap++;
    else carry.buffer.push(start);
  };

  setHandler(pauseSignal, (note) => setState({ paused: true, note: note ?? schedule.state.note }));
  setHandler(unpauseSignal, (note) => {
    // Actions that came due while paused are not taken afterwards (as in Temporal).
    carry.lastProcessedMs = Math.max(carry.lastProcessedMs, Date.now());
    setState({ paused: false, note: note ?? schedule.state.note });
  });
  setHandler(triggerSignal, (overlap) => {
    if (overlap !== null && overlap !== undefined && !OVERLAP_POLICIES.includes(overlap)) return ignored('trigger', overlap);
    enqueue({ nominalMs: Date.now(), overlap: overlap ?? schedule.policies.overlap });
    changes++;
  });
  setHandler(backfillSignal, (requests) => {
    if (!Array.isArray(requests) || !requests.every(isBackfillRequest)) return ignored('backfill', requests);
    for (const request of requests) {
      const room = MAX_BUFFERED - carry.buffer.length;
      const times = timesOf(schedule.spec, () => actionTimesBetween(schedule.spec, request.startAtMs - 1, request.endAtMs, room));
      for (const nominalMs of times) enqueue({ nominalMs, overlap: request.overlap ?? schedule.policies.overlap });
    }
    changes++;
  });
  setHandler(updateSignal, (next) => {
    if (!isScheduleDefinition(next)) return ignored('update', next);
    // The new spec applies from now on: no catching up on times it would have had in the past.
    carry.lastProcessedMs = Math.max(carry.lastProcessedMs, Date.now());
    schedule = next;
    carry.updatedAtMs = Date.now();
    changes++;
  });
  setHandler(deleteSignal, () => {
    deleted = true;
    changes++;
  });
  setHandler(describeQuery, () => describe(scheduleId, schedule, carry, deleted));

  /** Moves the actions due by `now` into the buffer. */
  const takeDueActions = (now: number) => {
    if (schedule.state.paused) return;
    const from = carry.lastProcessedMs;
    for (const nominalMs of timesOf(schedule.spec, () => actionTimesBetween(schedule.spec, from, now, MAX_DUE_PER_WAKE))) {
      if (nominalMs + jitterOf(scheduleId, nominalMs, schedule.spec.jitterMs) > now) return;
      carry.lastProcessedMs = nominalMs;
      if (now - nominalMs > schedule.policies.catchupWindowMs) {
        carry.missedCatchupWindow++;
        continue;
      }
      const remaining = schedule.state.remainingActions;
      if (remaining === 0) return;
      if (remaining !== null) schedule = { ...schedule, state: { ...schedule.state, remainingActions: remaining - 1 } };
      enqueue({ nominalMs, overlap: schedule.policies.overlap });
    }
  };

  const startNow = async (start: BufferedStart) => {
    const actualMs = Date.now();
    const requestId = `${startKey}/${carry.nextStartSeq++}`;
    const outcome = await activities.startScheduledWorkflow({ namespace, scheduleId, action: schedule.action, nominalMs: start.nominalMs, requestId });
    if (!outcome.started) {
      // A refused start (an invalid action, a deprecated namespace) is not an overlap: counted apart, with its reason.
      carry.failedStarts = (carry.failedStarts ?? 0) + 1;
      carry.lastFailedStart = outcome.reason;
      return;
    }
    carry.numActions++;
    carry.running.push({ workflowId: outcome.workflowId, runId: outcome.runId });
    carry.recentActions.push({
      scheduleTime: new Date(start.nominalMs).toISOString(),
      actualTime: new Date(actualMs).toISOString(),
      workflowId: outcome.workflowId,
      runId: outcome.runId,
    });
    carry.recentActions.splice(0, Math.max(0, carry.recentActions.length - RECENT_ACTIONS_KEPT));
  };

  /** Takes the buffered starts the overlap policies allow; the others wait or are dropped. */
  const processBuffer = async () => {
    const pending = carry.buffer;
    carry.buffer = [];
    if (carry.running.length > 0) {
      carry.running = await activities.openScheduledRuns(namespace, carry.running);
      carry.cancelRequested = carry.cancelRequested.filter((runId) => carry.running.some((r) => r.runId === runId));
    }
    const waiting: BufferedStart[] = [];
    for (const start of pending) {
      if (start.overlap === 'ALLOW_ALL' || (carry.running.length === 0 && waiting.length === 0)) {
        await startNow(start);
        continue;
      }
      switch (start.overlap) {
        case 'SKIP':
          carry.skippedOverlap++;
          break;
        case 'BUFFER_ALL':
          waiting.push(start);
          break;
        case 'BUFFER_ONE':
        case 'CANCEL_OTHER':
          if (waiting.length > 0) carry.skippedOverlap++;
          else waiting.push(start);
          if (start.overlap === 'CANCEL_OTHER') await cancelRunning();
          break;
        case 'TERMINATE_OTHER':
          await activities.endScheduledRuns(namespace, carry.running, 'terminate', `terminated by schedule ${scheduleId} (overlap policy TERMINATE_OTHER)`);
          carry.running = [];
          if (waiting.length === 0) await startNow(start);
          else waiting.push(start);
          break;
      }
    }
    carry.buffer = [...waiting, ...carry.buffer];
  };

  const cancelRunning = async () => {
    const toCancel = carry.running.filter((r) => !carry.cancelRequested.includes(r.runId));
    if (toCancel.length === 0) return;
    await activities.endScheduledRuns(namespace, toCancel, 'cancel', `cancelled by schedule ${scheduleId} (overlap policy CANCEL_OTHER)`);
    carry.cancelRequested.push(...toCancel.map((r) => r.runId));
  };

  /** When to wake next: the next action time, or the next check of a blocked buffer; null: only a signal. */
  const nextWakeMs = (): number | null => {
    const times: number[] = [];
    if (!schedule.state.paused && schedule.state.remainingActions !== 0) {
      const after = carry.lastProcessedMs;
      const nominalMs = timesOf(schedule.spec, () => nextActionTime(schedule.spec, after));
      if (nominalMs !== null) times.push(nominalMs + jitterOf(scheduleId, nominalMs, schedule.spec.jitterMs));
    }
    if (carry.buffer.length > 0 && !watching) times.push(Date.now() + RETRY_BUFFER_MS);
    return times.length > 0 ? Math.min(...times) : null;
  };

  /**
   * While buffered starts wait for open runs, an activity watches them and returns when one closes
   * (or after a minute), waking the scheduler: a buffered start is taken soon after the run ends,
   * without a timer per check in the history. One watch at a time; it outlives the waits it wakes.
   */
  const watchBlockingRuns = () => {
    if (watching || carry.buffer.length === 0 || carry.running.length === 0) return;
    watching = true;
    const wake = () => {
      watching = false;
      changes++;
    };
    void watches.awaitScheduledRunClose(namespace, carry.running, WATCH_MS).then(wake, wake);
  };

  for (let wakes = 0; !deleted; wakes++) {
    // Signals that arrive while the activities below run wake the next wait at once.
    const seen = changes;
    takeDueActions(Date.now());
    if (carry.buffer.length > 0) await processBuffer();
    if (deleted) break;
    if (wakes >= (input.wakesPerRun ?? WAKES_PER_RUN) || workflowInfo().continueAsNewSuggested) {
      return continueAsNew<typeof logbookScheduler>({ ...input, schedule, carry });
    }
    watchBlockingRuns();
    const wakeAt = nextWakeMs();
    if (wakeAt === null) await condition(() => changes !== seen);
    else await condition(() => changes !== seen, Math.max(1, wakeAt - Date.now()));
  }
  return `schedule ${scheduleId} deleted`;
}

/** A malformed signal (sent around the API) changes nothing: it is logged and dropped. */
function ignored(signal: string, value: unknown): void {
  console.warn(`schedule ${signal} signal ignored: malformed ${JSON.stringify(value)}`);
}

function isBackfillRequest(value: unknown): value is BackfillRequest {
  const request = value as BackfillRequest | null;
  return (
    request !== null &&
    typeof request === 'object' &&
    Number.isSafeInteger(request.startAtMs) &&
    Number.isSafeInteger(request.endAtMs) &&
    (request.overlap === null || OVERLAP_POLICIES.includes(request.overlap))
  );
}

function freshCarry(now: number): SchedulerCarry {
  return {
    createdAtMs: now,
    updatedAtMs: null,
    lastProcessedMs: now,
    nextStartSeq: 0,
    numActions: 0,
    missedCatchupWindow: 0,
    skippedOverlap: 0,
    recentActions: [],
    running: [],
    cancelRequested: [],
    buffer: [],
  };
}

function describe(scheduleId: string, schedule: ScheduleDefinition, carry: SchedulerCarry, deleted: boolean): ScheduleDescription {
  const next: string[] = [];
  if (!schedule.state.paused) {
    const count = Math.min(5, schedule.state.remainingActions ?? 5);
    for (let t = nextActionTime(schedule.spec, carry.lastProcessedMs); t !== null && next.length < count; t = nextActionTime(schedule.spec, t)) {
      next.push(new Date(t + jitterOf(scheduleId, t, schedule.spec.jitterMs)).toISOString());
    }
  }
  return {
    scheduleId,
    schedule,
    info: {
      numActions: carry.numActions,
      numActionsMissedCatchupWindow: carry.missedCatchupWindow,
      numActionsSkippedOverlap: carry.skippedOverlap,
      numActionsFailedToStart: carry.failedStarts ?? 0,
      lastFailedStart: carry.lastFailedStart ?? null,
      runningWorkflows: carry.running,
      recentActions: carry.recentActions,
      nextActionTimes: next,
      bufferedStarts: carry.buffer.length,
      createdAt: new Date(carry.createdAtMs).toISOString(),
      lastUpdatedAt: carry.updatedAtMs === null ? null : new Date(carry.updatedAtMs).toISOString(),
    },
    deleted,
  };
}
