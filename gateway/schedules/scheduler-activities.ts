/**
 * The activities of the scheduler workflow, run by the engine-internal worker of each node: start
 * a scheduled run, tell which runs are still open, cancel or terminate runs. They use the node's
 * command client and shard stores, and a peer's gateway for a shard this node does not own.
 * @module
 */
import { LogbookError } from '../../topics/errors.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import { scheduledWorkflowId, type RunRef, type ScheduledStartOutcome, type ScheduledStartRequest, type SchedulerActivities } from '../../sdk/schedules/scheduler-protocol.js';
import { ShardUnavailableError, type Engine } from '../engine.js';

/** How often a watch reads the state of the runs it watches (a store read, or a peer's describe). */
const WATCH_INTERVAL_MS = 500;

/** The scheduler's activities bound to one engine node. */
export function schedulerActivities(engine: Engine): SchedulerActivities {
  return {
    startScheduledWorkflow: (request) => startScheduledWorkflow(engine, request),
    openScheduledRuns: async (namespace, runs) => {
      const open: RunRef[] = [];
      for (const run of runs) if (await isOpen(engine, namespace, run)) open.push(run);
      return open;
    },
    awaitScheduledRunClose: async (namespace, runs, maxWaitMs) => {
      const deadline = Date.now() + maxWaitMs;
      while (Date.now() < deadline) {
        for (const run of runs) if (!(await isOpen(engine, namespace, run))) return;
        await new Promise((r) => setTimeout(r, WATCH_INTERVAL_MS));
      }
    },
    endScheduledRuns: async (namespace, runs, how, reason) => {
      for (const run of runs) {
        // Only a chain the schedule started, whatever run it is at now (continue-as-new, retry, reset):
        // the request names no run id, so it reaches the current one.
        if (!(await isOpen(engine, namespace, run))) continue;
        const body =
          how === 'cancel'
            ? { type: 'RequestCancelWorkflowExecution' as const, identity: 'logbook-scheduler', reason, externalInitiator: null, childWorkflowOnly: false }
            : { type: 'TerminateWorkflowExecution' as const, reason, details: null, identity: 'logbook-scheduler' };
        // An Error reply means the run already closed: nothing left to end.
        answered(await engine.client.send(engine.client.envelope(namespace, run.workflowId, body, { runId: null }), { awaitReply: true }));
      }
    },
  };
}

async function startScheduledWorkflow(engine: Engine, request: ScheduledStartRequest): Promise<ScheduledStartOutcome> {
  const { action, nominalMs } = request;
  const workflowId = scheduledWorkflowId(action, nominalMs);
  // A deprecated namespace starts no new workflows, scheduled ones included (running ones go on).
  if (engine.namespaces.get(request.namespace)?.state === 'Deprecated') {
    return { started: false, workflowId, reason: `namespace ${request.namespace} is deprecated: new workflows cannot be started` };
  }
  const reply = answered(
    await engine.client.start({
      namespace: request.namespace,
      workflowId,
      workflowType: action.workflowType,
      taskQueue: action.taskQueue,
      args: action.args,
      // Derived from the schedule and the start's sequence number: a retried activity gets the run it started.
      requestId: request.requestId,
      ...(action.workflowExecutionTimeoutMs !== null ? { workflowExecutionTimeout: action.workflowExecutionTimeoutMs } : {}),
      ...(action.workflowRunTimeoutMs !== null ? { workflowRunTimeout: action.workflowRunTimeoutMs } : {}),
      ...(action.workflowTaskTimeoutMs !== null ? { workflowTaskTimeout: action.workflowTaskTimeoutMs } : {}),
      ...(action.memo !== null ? { memo: action.memo } : {}),
      searchAttributes: {
        TemporalScheduledStartTime: { type: 'Datetime', value: nominalMs },
        TemporalScheduledById: { type: 'Keyword', value: request.scheduleId },
      },
    }),
  );
  if (reply.kind === 'Error' || !reply.runId) return { started: false, workflowId, reason: reply.failure?.message ?? 'the engine refused the start' };
  return { started: true, workflowId, runId: reply.runId };
}

/** The reply, or a retriable error when none came (the activity is retried). */
function answered(reply: Reply | undefined): Reply {
  if (!reply) throw new LogbookError('REPLY_TIMEOUT', 'the engine did not answer', { retriable: true });
  return reply;
}

/**
 * Whether the chain `run` started is still open, read from the owner's store (or its gateway): the
 * workflow's current run is open and is `run` or one of its successors (continue-as-new, retries,
 * cron runs and resets keep the chain's first run id).
 */
async function isOpen(engine: Engine, namespace: string, run: RunRef): Promise<boolean> {
  let info: { runId: string; firstExecutionRunId: string; status: string } | undefined;
  try {
    info = (await engine.describe(namespace, run.workflowId))?.executionInfo;
  } catch (error) {
    if (!(error instanceof ShardUnavailableError) || !error.ownerEndpoint) throw error;
    const url = `${error.ownerEndpoint}/api/v1/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(run.workflowId)}`;
    const response = await fetch(url, { headers: engine.peers.headers('GET', url) });
    if (response.status === 404) return false;
    if (!response.ok) throw new LogbookError('SHARD_UNAVAILABLE', `describe of ${run.workflowId} at ${error.ownerEndpoint} answered ${response.status}`, { retriable: true });
    info = ((await response.json()) as { executionInfo?: { runId: string; firstExecutionRunId: string; status: string } }).executionInfo;
  }
  return info !== undefined && (info.runId === run.runId || info.firstExecutionRunId === run.runId) && info.status === 'Running';
}
