/**
 * `logbook workflow …`: start, execute, list, count, describe, show, result, signal, query,
 * stack, update, cancel, terminate and reset, over the gateway's HTTP API (Logbook's
 * `WorkflowClient`), with the Temporal CLI's flag names.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Command, Option } from 'commander';
import type { ClientStartOptions, WorkflowExecutionInfo, WorkflowOutcome } from '../../sdk/client/workflow-client.js';
import { collect, encodedInputs, jsonInputs, withGatewayOptions, withSubjectOption, type CliContext } from './context.js';
import type { Action } from './context.js';
import { CliError, EXIT, usage } from './errors.js';
import { renderList, renderRecord, type Column } from './output.js';
import { workflowClientOf } from './sdk-clients.js';

const LIST_COLUMNS: readonly Column<WorkflowExecutionInfo>[] = [
  { heading: 'Workflow id', value: (r) => r.workflowId },
  { heading: 'Type', value: (r) => r.workflowType },
  { heading: 'Status', value: (r) => r.status },
  { heading: 'Start time', value: (r) => r.startTime },
  { heading: 'Close time', value: (r) => r.closeTime },
  { heading: 'Run id', value: (r) => r.runId },
];

type Event = { eventId: number; eventTime: number | string; attributes: { type: string } & Record<string, unknown> };
const EVENT_COLUMNS: readonly Column<Event>[] = [
  { heading: 'Id', value: (e) => e.eventId },
  { heading: 'Time', value: (e) => new Date(e.eventTime).toISOString() },
  { heading: 'Type', value: (e) => e.attributes.type },
];
const CLOSING_EVENTS: ReadonlySet<string> = new Set([
  'WorkflowExecutionCompleted', 'WorkflowExecutionFailed', 'WorkflowExecutionCanceled', 'WorkflowExecutionTerminated', 'WorkflowExecutionTimedOut', 'WorkflowExecutionContinuedAsNew',
]);

/** `workflow` and its subcommands. */
export function workflowCommand(action: Action): Command {
  const workflow = new Command('workflow').description('start, inspect and change workflows');
  const client = workflowClientOf;
  // addCommand answers the parent: the subcommand is returned to take its action.
  const add = (command: Command): Command => {
    workflow.addCommand(withGatewayOptions(command));
    return command;
  };
  const target = (command: Command) => command.requiredOption('-w, --workflow-id <id>', 'the workflow').option('-r, --run-id <id>', 'a run of it (default: the current run)');
  const handleOf = (c: CliContext, o: Record<string, unknown>) => client(c).getHandle(o.workflowId as string, o.runId as string | undefined);

  add(startOptions(new Command('start').description('start a workflow; prints its ids'))).action(action(async (c, o) => {
    const handle = await client(c).start(o.type as string, await startOptionsOf(c, o));
    c.print(renderRecord({ workflowId: handle.workflowId, runId: handle.runId }, c.output));
  }));

  add(startOptions(new Command('execute').description('start a workflow and wait for its result (exit 1 unless it completed)'))).action(action(async (c, o) => {
    const handle = await client(c).start(o.type as string, await startOptionsOf(c, o));
    await printOutcome(c, await handle.result(o.timeout as string));
  }));

  add(new Command('list').description('list runs, newest first').option('-q, --query <query>', "visibility query, e.g. \"WorkflowType = 'order' AND ExecutionStatus = 'Running'\"", '').option('--limit <n>', 'at most this many', '100')).action(action(async (c, o) => {
    const limit = positive(o.limit as string, '--limit');
    const rows: WorkflowExecutionInfo[] = [];
    for await (const row of client(c).list({ query: o.query as string, pageSize: Math.min(limit, 1000) })) {
      rows.push(row);
      if (rows.length >= limit) break;
    }
    c.print(renderList(await c.values.decode(rows), c.output, LIST_COLUMNS));
  }));

  add(new Command('count').description('count runs').option('-q, --query <query>', 'visibility query', '')).action(action(async (c, o) => {
    const count = await client(c).count(o.query as string);
    c.print(c.output === 'table' ? String(count) : JSON.stringify({ count }));
  }));

  add(target(new Command('describe').description('the run: status, pending activities and timers, memo, search attributes'))).action(action(async (c, o) => {
    const described = await c.values.decode(await handleOf(c, o).describe());
    c.print(c.output === 'table' ? renderRecord(summaryOf(described), 'table') : renderRecord(described, c.output));
  }));

  add(target(new Command('show').description("the run's history; --follow prints new events until it closes")).option('-f, --follow', 'keep printing events until the run closes', false)).action(action(async (c, o) => {
    let handle = handleOf(c, o);
    if (!o.follow) {
      c.print(renderList((await c.values.decode(await handle.fetchHistory())) as Event[], c.output, EVENT_COLUMNS));
      return;
    }
    // Followed by its run id: after a continue-as-new the workflow's current run is another one.
    if (!o.runId) handle = client(c).getHandle(o.workflowId as string, ((await handle.describe()) as { executionInfo: { runId: string } }).executionInfo.runId);
    let shown = 0;
    for (;;) {
      const events = (await c.values.decode(await handle.fetchHistory())) as Event[];
      for (const event of events.slice(shown)) c.print(c.output === 'table' ? `${event.eventId}\t${new Date(event.eventTime).toISOString()}\t${event.attributes.type}` : JSON.stringify(event));
      shown = events.length;
      if (events.some((e) => CLOSING_EVENTS.has(e.attributes.type))) return;
      await delay(1_000);
    }
  }));

  add(target(new Command('result').description('wait for the run to close and print its result (exit 1 unless it completed)')).option('--timeout <duration>', 'how long to wait', '1h')).action(action(async (c, o) => {
    await printOutcome(c, await handleOf(c, o).result(o.timeout as string));
  }));

  add(withSubjectOption(target(new Command('signal').description('signal the run')).requiredOption('--name <signal>', 'the signal').option('-i, --input <json>', 'an argument as JSON (repeat for more)', collect))).action(action(async (c, o) => {
    await handleOf(c, o).signal(o.name as string, ...(await encodedInputs(c, o)));
    c.print(c.output === 'table' ? `signalled ${String(o.workflowId)} with ${String(o.name)}` : JSON.stringify({ workflowId: o.workflowId, signal: o.name }));
  }));

  add(withSubjectOption(target(new Command('query').description("ask one of the run's query handlers")).requiredOption('--type <query>', 'the query').option('-i, --input <json>', 'an argument as JSON (repeat for more)', collect))).action(action(async (c, o) => {
    const result = await c.values.decode(await handleOf(c, o).query(o.type as string, ...(await encodedInputs(c, o))));
    c.print(c.output === 'table' && typeof result === 'string' ? result : JSON.stringify(result ?? null, null, c.output === 'json' ? 2 : undefined));
  }));

  add(target(new Command('stack').description('where the run waits: its pending operations (the __stack_trace query)'))).action(action(async (c, o) => {
    const trace = await handleOf(c, o).query<string>('__stack_trace');
    c.print(c.output === 'table' ? trace : JSON.stringify({ stackTrace: trace }));
  }));

  add(withSubjectOption(target(new Command('update').description('send an update and print its result')).requiredOption('--name <update>', 'the update').option('-i, --input <json>', 'an argument as JSON (repeat for more)', collect).option('--update-id <id>', 'deduplicates the update'))).action(action(async (c, o) => {
    const sent = await handleOf(c, o).executeUpdate(o.name as string, { args: await encodedInputs(c, o), ...(o.updateId ? { updateId: o.updateId as string } : {}) });
    const result = await c.values.decode(sent);
    c.print(c.output === 'table' && typeof result === 'string' ? result : JSON.stringify(result ?? null, null, c.output === 'json' ? 2 : undefined));
  }));

  add(target(new Command('cancel').description('ask the run to cancel')).option('--reason <text>', 'why', '')).action(action(async (c, o) => {
    await handleOf(c, o).cancel(o.reason as string);
    c.print(c.output === 'table' ? `cancellation requested for ${String(o.workflowId)}` : JSON.stringify({ workflowId: o.workflowId, cancelRequested: true }));
  }));

  add(target(new Command('terminate').description('end the run now, without cleanup')).option('--reason <text>', 'why', '')).action(action(async (c, o) => {
    await handleOf(c, o).terminate(o.reason as string);
    c.print(c.output === 'table' ? `terminated ${String(o.workflowId)}` : JSON.stringify({ workflowId: o.workflowId, terminated: true }));
  }));

  add(target(new Command('reset').description('start a new run from a workflow task of this one (its WorkflowTaskCompleted event id)')).requiredOption('--event-id <id>', 'a WorkflowTaskCompleted event').option('--reason <text>', 'why', '')).action(action(async (c, o) => {
    const runId = await handleOf(c, o).reset({ eventId: positive(o.eventId as string, '--event-id'), reason: o.reason as string });
    c.print(renderRecord({ workflowId: o.workflowId, runId }, c.output));
  }));

  return workflow;
}

/** The flags of a start (Temporal CLI's names). */
function startOptions(command: Command): Command {
  return withSubjectOption(command)
    .requiredOption('--type <workflow type>', 'the workflow type')
    .requiredOption('-t, --task-queue <queue>', 'the task queue')
    .option('-w, --workflow-id <id>', 'the workflow id (default: a new UUID)')
    .option('-i, --input <json>', 'an argument as JSON (repeat for more)', collect)
    .option('--execution-timeout <duration>', 'e.g. 1h')
    .option('--run-timeout <duration>', 'e.g. 30m')
    .option('--task-timeout <duration>', 'e.g. 10s')
    .option('--cron <expression>', 'run on a cron schedule')
    .option('--memo <key=json>', 'a memo entry (repeat for more)', collect)
    .addOption(new Option('--id-conflict-policy <policy>', 'when a run with the id is open').choices(['Fail', 'UseExisting', 'TerminateExisting']))
    .addOption(new Option('--id-reuse-policy <policy>', 'when the last run with the id is closed').choices(['AllowDuplicate', 'AllowDuplicateFailedOnly', 'RejectDuplicate']))
    .option('--timeout <duration>', 'execute: how long to wait for the result', '1h');
}

/** A start's options; with a codec endpoint, its input and memo values encoded there. */
async function startOptionsOf(c: CliContext, o: Record<string, unknown>): Promise<ClientStartOptions> {
  const entries = ((o.memo as string[] | undefined) ?? []).map((entry) => {
    const at = entry.indexOf('=');
    if (at <= 0) throw usage(`--memo ${JSON.stringify(entry)} must be key=json`);
    return [entry.slice(0, at), jsonInputs([entry.slice(at + 1)], '--memo')[0]] as const;
  });
  const memoValues = await c.values.encode(entries.map(([, value]) => value), o.subject as string | undefined);
  const memo = Object.fromEntries(entries.map(([key], i) => [key, memoValues[i]]));
  return {
    workflowId: (o.workflowId as string | undefined) ?? randomUUID(),
    taskQueue: o.taskQueue as string,
    args: await encodedInputs(c, o),
    ...(o.executionTimeout ? { workflowExecutionTimeout: o.executionTimeout as string } : {}),
    ...(o.runTimeout ? { workflowRunTimeout: o.runTimeout as string } : {}),
    ...(o.taskTimeout ? { workflowTaskTimeout: o.taskTimeout as string } : {}),
    ...(o.cron ? { cronSchedule: o.cron as string } : {}),
    ...(Object.keys(memo).length > 0 ? { memo } : {}),
    ...(o.idConflictPolicy ? { workflowIdConflictPolicy: o.idConflictPolicy as ClientStartOptions['workflowIdConflictPolicy'] } : {}),
    ...(o.idReusePolicy ? { workflowIdReusePolicy: o.idReusePolicy as ClientStartOptions['workflowIdReusePolicy'] } : {}),
  };
}

/** Prints how the run closed (its result and failure details decoded); anything but Completed exits 1. */
async function printOutcome(c: CliContext, outcome: WorkflowOutcome): Promise<void> {
  const record = await c.values.decode({ runId: outcome.runId, status: outcome.status, result: outcome.result, failure: outcome.failure, newExecutionRunId: outcome.newExecutionRunId });
  c.print(renderRecord(record, c.output));
  if (outcome.status !== 'Completed') throw new CliError(`the run ended ${outcome.status}${outcome.failure ? `: ${outcome.failure.message}` : ''}`, EXIT.FAILED);
}

/** The parts of a description a person reads first. */
function summaryOf(described: Record<string, unknown>): Record<string, unknown> {
  const info = (described.executionInfo ?? {}) as Record<string, unknown>;
  return {
    workflowId: info.workflowId, runId: info.runId, type: info.workflowType, taskQueue: info.taskQueue, status: info.status,
    startTime: time(info.startTime), closeTime: time(info.closeTime), historyLength: info.lastEventId,
    pendingActivities: described.pendingActivities, pendingTimers: described.pendingTimers, memo: described.memo, searchAttributes: described.searchAttributes,
  };
}

function time(value: unknown): string | undefined {
  return typeof value === 'number' && value > 0 ? new Date(value).toISOString() : typeof value === 'string' ? value : undefined;
}

function positive(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw usage(`${flag} must be a whole number ≥ 1, got ${JSON.stringify(text)}`);
  return n;
}
