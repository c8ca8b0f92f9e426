/**
 * The entry point for commands: routes each command type to its handler (a mapped type, so a new
 * command type does not compile until it is handled) and turns the result into a Transition.
 * @module
 */
import type { Command, CommandBodyOf, CommandType } from '../../topics/schemas/command/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { defaultHistoryConfig, type HistoryConfig } from './config.js';
import { openContext, rejectionOnly, type Ctx } from './context.js';
import { finishWithinLimits } from './history-limits.js';
import {
  activityTaskCanceled,
  activityTaskCompleted,
  activityTaskFailed,
  activityTaskHeartbeat,
  activityTaskStarted,
} from './activity-inputs.js';
import { answerParent, notChildOfSender, quietStaleChildMessage } from './child-answers.js';
import { recordChildCompleted, recordChildStarted, recordChildStartFailed } from './child-workflows.js';
import { awaitResult, requestCancelWorkflow, signalWorkflow, terminateWorkflow } from './client-requests.js';
import { answerInitiator, recordCancelExternalResult, recordSignalExternalResult } from './external-requests.js';
import { resetWorkflow } from './reset.js';
import { answersInheritedChild } from './reset-children.js';
import { answersOwnExternalRequest } from './reset-child-requests.js';
import { applyStart, type StartCommand } from './start.js';
import { NO_FACTS, withFreshRunId, type InputFacts } from './run-id-reuse.js';
import { RejectionCode, type Transition } from './transition.js';
import { workflowTaskFailed, workflowTaskStarted } from './workflow-task-attempts.js';
import { workflowTaskCompleted } from './workflow-task-completion.js';
import { updateWorkflow } from './updates.js';
import { applyUpdateWithStart, isUpdateWithStart } from './update-with-start.js';

type StartType = 'StartWorkflowExecution' | 'SignalWithStartWorkflowExecution';
type RunCommandType = Exclude<CommandType, StartType>;
type Handler<K extends RunCommandType> = (ctx: Ctx, body: CommandBodyOf<K>) => void;


/** Handlers of every command addressed to an existing run. */
const runHandlers: { [K in RunCommandType]: Handler<K> } = {
  SignalWorkflowExecution: signalWorkflow,
  RequestCancelWorkflowExecution: requestCancelWorkflow,
  TerminateWorkflowExecution: terminateWorkflow,
  UpdateWorkflowExecution: updateWorkflow,
  AwaitWorkflowExecutionResult: awaitResult,
  WorkflowTaskStarted: workflowTaskStarted,
  WorkflowTaskCompleted: workflowTaskCompleted,
  WorkflowTaskFailed: workflowTaskFailed,
  ActivityTaskStarted: activityTaskStarted,
  ActivityTaskCompleted: activityTaskCompleted,
  ActivityTaskFailed: activityTaskFailed,
  ActivityTaskHeartbeat: activityTaskHeartbeat,
  ActivityTaskCanceled: activityTaskCanceled,
  RecordChildExecutionStarted: recordChildStarted,
  RecordChildExecutionStartFailed: recordChildStartFailed,
  RecordChildExecutionCompleted: recordChildCompleted,
  RecordSignalExternalWorkflowExecutionResult: recordSignalExternalResult,
  RecordRequestCancelExternalWorkflowExecutionResult: recordCancelExternalResult,
  ResetWorkflowExecution: resetWorkflow,
};

/**
 * True if the command is for the workflow's current run: it names no run, names it, is a result
 * wait that follows continue-as-new chains naming the chain's first run (what a client that
 * started the workflow holds), which the current run continues, or is the answer of a child the
 * current run inherited through a reset from the run it names (`reset-children.ts`), or the answer
 * to the run's own request to such a child (`reset-child-requests.ts`).
 */
function namesCurrentRun(state: MutableStateSnapshot, command: Command): boolean {
  const info = state.executionInfo;
  if (command.runId === null || command.runId === info.runId) return true;
  if (answersInheritedChild(state, command) || answersOwnExternalRequest(state, command)) return true;
  return command.body.type === 'AwaitWorkflowExecutionResult' && command.body.followRuns && command.runId === info.firstExecutionRunId;
}

function isStart(command: Command): command is StartCommand {
  return command.body.type === 'StartWorkflowExecution' || command.body.type === 'SignalWithStartWorkflowExecution';
}

/**
 * Applies one command to the workflow's state (null: no run was ever started under this id).
 * Never throws for bad input — it is refused with a {@link Transition.rejection} — only for a
 * bug such as an event id at or below the run's last one.
 */
export function applyCommand(
  state: MutableStateSnapshot | null,
  command: Command,
  now: number,
  config: HistoryConfig = defaultHistoryConfig,
  facts: InputFacts = NO_FACTS,
): Transition {
  // A start naming an earlier run's id gets a fresh one (run-id-reuse.ts): ids are unique per workflow id.
  const input = facts.runIdUsedEarlier && state ? withFreshRunId(command, state.executionInfo.runId) : command;
  return answerInitiator(input, quietStaleChildMessage(input, answerParent(input, applyToRun(state, input, now, config))));
}

function applyToRun(state: MutableStateSnapshot | null, command: Command, now: number, config: HistoryConfig): Transition {
  const type = (command.body as { type?: unknown } | null | undefined)?.type;
  const runId = state?.executionInfo.runId ?? null;
  if (typeof type !== 'string' || !(type in runHandlers || isStart(command))) {
    return rejectionOnly(command.replyTo, runId, { code: RejectionCode.UnknownCommand, message: `unknown command type ${String(type)}` });
  }
  if (isStart(command)) return isUpdateWithStart(command) ? applyUpdateWithStart(state, command, now, config) : applyStart(state, command, now, config);
  if (state === null) {
    const message = `workflow ${command.namespace}/${command.workflowId} not found`;
    return rejectionOnly(command.replyTo, null, { code: RejectionCode.WorkflowNotFound, message });
  }
  if (!namesCurrentRun(state, command)) {
    const message = `run ${command.runId} of workflow ${command.workflowId} not found (the current run is ${runId})`;
    return rejectionOnly(command.replyTo, runId, { code: RejectionCode.RunNotFound, message });
  }
  const notChild = notChildOfSender(state, command);
  if (notChild) return rejectionOnly(command.replyTo, runId, notChild);
  const ctx = openContext(state, now, config, command);
  const handler = runHandlers[type as RunCommandType] as Handler<RunCommandType>;
  handler(ctx, command.body as CommandBodyOf<RunCommandType>);
  return finishWithinLimits(ctx, state);
}
