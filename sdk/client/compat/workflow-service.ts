import type { HistoryEvent } from '../../../topics/schemas/history-event/index.js';
import type { ClientStartOptions, WorkflowExecutionInfo, WorkflowHandle } from '../workflow-client.js';
import type { UpdateWithStartOptions } from '../workflow-updates.js';

/**
 * What `client.workflow` of `logbook/client` needs from the way it reaches the engine: the
 * gateway's HTTP API (Logbook's `WorkflowClient`) or Kafka itself ({@link KafkaWorkflowService}).
 * Errors are `WorkflowClientError`s carrying the engine's code either way.
 */
export interface WorkflowService {
  start(workflowType: string, options: ClientStartOptions): Promise<{ readonly runId: string | undefined }>;
  signalWithStart(workflowType: string, options: ClientStartOptions & { signal: string; signalArgs?: readonly unknown[] }): Promise<{ readonly runId: string | undefined }>;
  executeUpdateWithStart<R = unknown>(update: string, options: UpdateWithStartOptions): Promise<R>;
  startUpdateWithStart(update: string, options: UpdateWithStartOptions): Promise<{ updateId: string; runId: string | undefined }>;
  getHandle(workflowId: string, runId?: string): WorkflowHandle;
  list(options?: { query?: string; pageSize?: number }): AsyncIterable<WorkflowExecutionInfo>;
  count(query?: string): Promise<number>;
  /** The run's history in the lossless form, payloads as bytes (what `Worker.runReplayHistory` replays). */
  fetchRawHistory(workflowId: string, runId: string | undefined): Promise<HistoryEvent[]>;
}
