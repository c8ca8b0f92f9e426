import type { DataConverter } from '../../../topics/payload/index.js';
import type { QueryTask } from '../../../topics/schemas/query-task/index.js';
import type { WorkflowTask } from '../../../topics/schemas/workflow-task/index.js';
import { toRawView } from '../../../topics/wire/raw-view.js';
import { QueryAnswerer } from '../query-answerer.js';
import { SDK_NAME, SDK_VERSION, taskFailedCause, unsendableCompletion } from '../workflow-task-answers.js';
import { WorkflowTaskRunner } from '../workflow-task-runner.js';
import { loadWorkflowBundle, type WorkflowWorkerOptions } from '../workflow-worker.js';
import { GatewayAccessDeniedError, GatewayRefusedError, wireFailure, type GatewayTaskClient, type PolledTask } from './gateway-task-client.js';
import { TaskPollers } from './task-pollers.js';

/** Long polls kept open for workflow tasks, and for queries. */
const WORKFLOW_POLLERS = 2;
const QUERY_POLLERS = 2;
/** Queries answered at once; they are short, and a replay waits on history I/O. */
const QUERY_SLOTS = 16;

/**
 * Runs a task queue's workflow tasks and queries over the gateway's HTTP task endpoints, for a
 * worker that does not reach Kafka (a dev server on its embedded backend, a network where only
 * the gateway is open). The poll is the claim; the completion carries the workflow's commands. The
 * runs are cached and replayed exactly as by the Kafka worker ({@link WorkflowTaskRunner}); tasks of
 * one run never run at once.
 */
export class HttpWorkflowWorker {
  private runner: WorkflowTaskRunner | undefined;
  private tasks: TaskPollers<WorkflowTask> | undefined;
  private queries: TaskPollers<QueryTask> | undefined;
  /** The task of each run being run, so the next task of the run waits for it. */
  private readonly runsInProgress = new Map<string, Promise<void>>();

  constructor(
    private readonly client: GatewayTaskClient,
    private readonly dataConverter: DataConverter,
    private readonly options: Omit<WorkflowWorkerOptions, 'onLag'>,
  ) {}

  async start(): Promise<void> {
    const { identity } = this.options;
    const bundle = await loadWorkflowBundle(this.options.workflowsPath);
    const runner = new WorkflowTaskRunner({ ...this.options, bundle, dataConverter: this.dataConverter });
    this.runner = runner;
    const answerer = new QueryAnswerer({ ...this.options, bundle, cache: runner.cache, dataConverter: this.dataConverter });
    const slots = this.options.maxConcurrentWorkflowTasks ?? 10;
    this.tasks = new TaskPollers<WorkflowTask>({ client: this.client, kind: 'workflow', identity, pollers: WORKFLOW_POLLERS, slots, run: (polled) => this.inRunOrder(polled) });
    this.queries = new TaskPollers<QueryTask>({ client: this.client, kind: 'query', identity, pollers: QUERY_POLLERS, slots: QUERY_SLOTS, run: (polled) => this.answerQuery(answerer, polled) });
    this.tasks.start();
    this.queries.start();
  }

  async stop(graceMs = 10_000): Promise<void> {
    const [tasksDone] = await Promise.all([this.tasks?.stop(graceMs), this.queries?.stop(graceMs)]);
    // A task still running past the grace keeps its run: disposing it mid-activation would fail the task.
    if (tasksDone !== false) this.runner?.clear();
  }

  /** Runs the task after any task of its run this worker is still running. */
  private async inRunOrder(polled: PolledTask<WorkflowTask>): Promise<void> {
    const runId = polled.task.runId;
    const before = this.runsInProgress.get(runId) ?? Promise.resolve();
    const mine = before.then(() => this.process(polled));
    const tail = mine.catch(() => undefined);
    this.runsInProgress.set(runId, tail);
    try {
      await mine;
    } finally {
      if (this.runsInProgress.get(runId) === tail) this.runsInProgress.delete(runId);
    }
  }

  /** Runs one workflow task and answers it; a completion the gateway refuses for good fails the task instead. */
  private async process({ taskToken, task }: PolledTask<WorkflowTask>): Promise<void> {
    const runner = this.runner!;
    const result = await runner.run(task);
    if (result.type !== 'completed') {
      await this.client.answer('workflow-tasks/fail', { taskToken, cause: taskFailedCause(result), failure: wireFailure(result.failure) });
      return;
    }
    try {
      await this.client.answer('workflow-tasks/complete', { taskToken, commands: toRawView(result.commands), sdkName: SDK_NAME, sdkVersion: SDK_VERSION });
    } catch (error) {
      // A token this gateway does not take, or credentials it refuses, are no fault of the completion: the task times out and is retried.
      if (!(error instanceof GatewayRefusedError) || error.code === 'INVALID_TASK_TOKEN' || error instanceof GatewayAccessDeniedError) throw error;
      runner.failedToAnswer(task);
      const { cause, failure } = unsendableCompletion(task, error, error.code === 'PayloadTooLarge' || error.status === 413);
      await this.client.answer('workflow-tasks/fail', { taskToken, cause, failure: wireFailure(failure) });
      return;
    }
    runner.answered(task, result.commands);
  }

  private async answerQuery(answerer: QueryAnswerer, { taskToken, task }: PolledTask<QueryTask>): Promise<void> {
    const { result } = await answerer.answer(task);
    if (result.type === 'answered') await this.client.answer('query-tasks/answer', { taskToken, payload: toRawView(result.result) });
    else await this.client.answer('query-tasks/answer', { taskToken, failure: wireFailure(result.failure) });
  }
}
