/**
 * WorkflowTaskCompleted: the worker's commands become history. In order: WorkflowTaskScheduled
 * (transient attempts only), WorkflowTaskStarted, WorkflowTaskCompleted, one event per command,
 * the events buffered meanwhile, and a new WorkflowTaskScheduled if the workflow has something new
 * to see. Invalid commands fail the task instead; closing the run (complete, fail, cancel,
 * continue-as-new) while events are buffered, or while updates it has not answered are admitted, is
 * refused with UnhandledCommand and a new task delivers them at once, so the workflow sees a signal
 * or an update before it hands over to a new run (Temporal).
 * @module
 */
import type { CommandBodyOf, WorkflowCommand } from '../../topics/schemas/command/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { appendEvent, engineFailure, type Ctx } from './context.js';
import { closesRun, validateCommands } from './command-validation.js';
import { flushBuffered } from './delivery.js';
import { warnIfHistoryLarge } from './history-limits.js';
import { RejectionCode } from './transition.js';
import { applyWorkflowCommands } from './workflow-commands.js';
import { failTaskAndTerminate, oversizedCommandPayload } from './payload-limits.js';
import { plaintextCommandProblem } from './codec-required.js';
import { refusedSearchAttributeProblem } from './search-attribute-guard.js';
import { endAttempt, pendingAttempt, writeAttemptStart } from './workflow-task-attempts.js';
import { scheduleWorkflowTask } from './workflow-task-schedule.js';
import { completeQuietly, completesQuietly, requestTaskForUpdates } from './updates.js';
import { admittedUpdates } from './update-registry.js';

/** Applies a workflow-task completion (see the module comment). */
export function workflowTaskCompleted(ctx: Ctx, body: CommandBodyOf<'WorkflowTaskCompleted'>): void {
  const task = pendingAttempt(ctx, body, RejectionCode.StaleWorkflowTaskCompletion);
  if (!task) return;
  const state = ctx.state;
  const oversized = oversizedCommandPayload(ctx, body.commands);
  if (oversized) return failTaskAndTerminate(ctx, task, oversized, body.identity);
  // A namespace guard fails the task like an invalid command: a fixed worker or workflow gets the run going again.
  const problem = validateCommands(ctx, body.commands) ?? plaintextCommandProblem(ctx, body.commands) ?? refusedSearchAttributeProblem(ctx, body.commands);
  if (problem) {
    const failure = engineFailure(problem.code, problem.message);
    endAttempt(ctx, task, { kind: 'Failed', cause: problem.cause, failure, identity: body.identity }, task.attempt + 1);
    return;
  }
  const unhandled = body.commands.some(closesRun) ? unhandledOnClose(state, body.commands) : null;
  if (unhandled) {
    const message = `the workflow tried to close while ${unhandled} were waiting; it gets a new workflow task`;
    const failure = engineFailure('UnhandledCommand', message);
    endAttempt(ctx, task, { kind: 'Failed', cause: 'UnhandledCommand', failure, identity: body.identity }, 1);
    return;
  }
  if (completesQuietly(state, task, body.commands)) {
    completeQuietly(ctx, body.commands);
    return;
  }
  const startedEventId = writeAttemptStart(ctx, task, body.identity);
  const completed = appendEvent(ctx, {
    type: 'WorkflowTaskCompleted', scheduledEventId: task.scheduledEventId, startedEventId, identity: body.identity,
    sdkFlags: body.sdkFlags, sdkName: body.sdkName, sdkVersion: body.sdkVersion,
  });
  state.executionInfo.lastWorkflowTaskCompletedEventId = completed.eventId;
  state.pendingWorkflowTask = null;
  const needsWorkflowTask = applyWorkflowCommands(ctx, body.commands, { completedEventId: completed.eventId, identity: body.identity });
  // `state` is the run the task belonged to: closed by the commands, or replaced by the run that
  // continues it (which already has its first workflow task).
  if (state.executionInfo.status !== 'Running') return;
  warnIfHistoryLarge(ctx, completed.eventId);
  const flushed = flushBuffered(ctx);
  if (flushed || needsWorkflowTask) scheduleWorkflowTask(ctx, 1);
  requestTaskForUpdates(ctx);
}

/**
 * What a closing completion would leave unseen, described for the failure message, or null: events
 * buffered while the task ran, and admitted updates the completion neither accepts nor rejects.
 */
function unhandledOnClose(state: MutableStateSnapshot, commands: readonly WorkflowCommand[]): string | null {
  const answered = new Set(commands.flatMap((c) => (c.type === 'ProtocolMessage' && c.body.type !== 'UpdateResponse' ? [c.protocolInstanceId] : [])));
  const updates = admittedUpdates(state).filter((u) => !answered.has(u.request.updateId)).length;
  const parts = [
    ...(state.bufferedEvents.length > 0 ? [`${state.bufferedEvents.length} new event(s)`] : []),
    ...(updates > 0 ? [`${updates} update(s)`] : []),
  ];
  return parts.length > 0 ? parts.join(' and ') : null;
}
