/**
 * Update-with-start in one command: a StartWorkflowExecution whose header carries the update under
 * {@link UPDATE_WITH_START_HEADER} (Command v1 has no update-with-start body, and only one engineer
 * adds Command v2). The start is applied with conflict policy UseExisting — a new run, or the
 * open one — and the update is admitted to that run in the same transition, so the run's first
 * workflow task already carries it. The command's `replyTo` is the update's: its caller is
 * answered as for UpdateWorkflowExecution (with the run id). The header entry is removed before
 * the start is recorded, so the workflow never sees it.
 * @module
 */
import type { Command, StartWorkflowExecutionRequest } from '../../topics/schemas/command/index.js';
import { decodeUpdateWithStart, UPDATE_WITH_START_HEADER } from '../../topics/schemas/command/update-with-start-header.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { firstProblem, identifierProblem } from '../../topics/validation/index.js';
import type { HistoryConfig } from './config.js';
import { openContext, rejectionOnly } from './context.js';
import { finishWithinLimits } from './history-limits.js';
import { oversizedInputRejection } from './payload-limits.js';
import { plaintextInputRejection } from './codec-required.js';
import { applyStart, type StartCommand } from './start.js';
import { RejectionCode, type Transition } from './transition.js';
import { updateMessagesOf, updateWorkflow } from './updates.js';

/** True for a StartWorkflowExecution that carries an update. */
export function isUpdateWithStart(command: StartCommand): boolean {
  return command.body.type === 'StartWorkflowExecution' && UPDATE_WITH_START_HEADER in command.body.header;
}

/** Merges the start's transition with the update's on the run the start left. */
function merged(started: Transition, updated: Transition, state: MutableStateSnapshot): Transition {
  const runId = state.executionInfo.runId;
  const messages = updateMessagesOf(state);
  // The start's first task was built before the update was admitted: it carries it too.
  const tasks = started.tasks.map((t) => (t.type === 'WorkflowTask' && t.runId === runId ? { ...t, messages } : t));
  return {
    state: updated.state ?? started.state,
    changed: started.changed || updated.changed,
    events: [...started.events, ...updated.events],
    tasks: [...tasks, ...updated.tasks],
    commands: [...started.commands, ...updated.commands],
    replies: [...started.replies, ...updated.replies],
    visibility: updated.visibility ?? started.visibility,
    closedRun: started.closedRun,
    rejection: null,
  };
}

/** Applies an update-with-start (see the module comment). */
export function applyUpdateWithStart(current: MutableStateSnapshot | null, command: StartCommand, now: number, config: HistoryConfig): Transition {
  const body = command.body as Extract<StartCommand['body'], { type: 'StartWorkflowExecution' }>;
  const runId = current?.executionInfo.runId ?? null;
  const { [UPDATE_WITH_START_HEADER]: carried, ...header } = body.header;
  const update = carried ? decodeUpdateWithStart(carried) : null;
  if (!update || !update.request.updateId || !update.request.name) {
    return rejectionOnly(command.replyTo, runId, { code: RejectionCode.InvalidArgument, message: `the '${UPDATE_WITH_START_HEADER}' header of an update-with-start is malformed` });
  }
  const invalid = firstProblem(() => identifierProblem(update.request.updateId, 'updateId'), () => identifierProblem(update.request.name, 'update name'));
  if (invalid) return rejectionOnly(command.replyTo, runId, { code: RejectionCode.InvalidArgument, message: invalid });
  // Checked before the start, so an update the run could never take does not start a run either.
  const what = `update ${update.request.updateId} of update-with-start`;
  const tooLarge = oversizedInputRejection(config, command.namespace, what, update.request.args) ?? plaintextInputRejection(config, command.namespace, [body.taskQueue], what, update.request.args);
  if (tooLarge) return rejectionOnly(command.replyTo, runId, tooLarge);
  if (body.workflowIdConflictPolicy !== 'UseExisting') {
    const message = `update-with-start needs workflowIdConflictPolicy UseExisting, got ${body.workflowIdConflictPolicy}`;
    return rejectionOnly(command.replyTo, runId, { code: RejectionCode.InvalidArgument, message });
  }
  const start: StartWorkflowExecutionRequest & { type: 'StartWorkflowExecution' } = { ...body, header };
  const started = applyStart(current, { ...command, replyTo: null, body: start }, now, config);
  if (started.rejection) return rejectionOnly(command.replyTo, runId, started.rejection);
  const run = started.state ?? current;
  if (run === null) throw new Error(`update-with-start of ${command.workflowId}: the start left no run`);
  const updateCommand: Command<'UpdateWorkflowExecution'> = {
    requestId: command.requestId, namespace: command.namespace, workflowId: command.workflowId, runId: null, replyTo: command.replyTo,
    body: { type: 'UpdateWorkflowExecution', ...update },
  };
  const ctx = openContext(run, now, config, updateCommand);
  updateWorkflow(ctx, updateCommand.body);
  const updated = finishWithinLimits(ctx, run);
  // The start stands even if the update is refused (a limit): the caller learns why from the reply.
  if (updated.rejection) return { ...started, replies: [...started.replies, ...updated.replies] };
  return merged(started, updated, updated.state ?? run);
}
