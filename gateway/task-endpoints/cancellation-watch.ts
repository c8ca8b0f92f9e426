import type { Log } from '../../topics/log/log.js';
import { activityControlCodec, type Serde } from '../../topics/serde/index.js';
import { TaskConsumer } from '../../sdk/worker/task-consumer.js';

/** Cancellations remembered at most; the oldest are forgotten first. */
const MAX_REMEMBERED = 50_000;

/**
 * Reads a task queue's activity control topic for the HTTP workers of this gateway, so a heartbeat
 * can answer `cancelRequested`. Like every Kafka activity worker it reads the whole topic in a group
 * of its own: a cancellation must reach whichever worker runs the activity.
 */
export class CancellationWatch {
  private readonly consumer: TaskConsumer;
  /** `${workflowId}:${runId}:${scheduledEventId}`, in arrival order (a Map keeps insertion order). */
  private readonly cancelled = new Map<string, true>();
  lastUsed = Date.now();

  constructor(options: { log: Log; serde: Serde; topic: string; groupId: string; identity: string }) {
    this.consumer = new TaskConsumer({
      log: options.log,
      topic: options.topic,
      groupId: options.groupId,
      identity: options.identity,
      maxConcurrent: 1,
      ordered: true,
      handle: async (record) => {
        if (!record.value) return;
        const control = await options.serde.decode(activityControlCodec, record.value);
        this.cancelled.set(activityKey(control.workflowId, control.runId, control.scheduledEventId), true);
        if (this.cancelled.size > MAX_REMEMBERED) this.cancelled.delete(this.cancelled.keys().next().value!);
      },
    });
  }

  start(): Promise<void> {
    return this.consumer.start();
  }

  stop(): Promise<void> {
    return this.consumer.stop(0);
  }

  /** True once the engine asked to cancel this activity (all attempts share the scheduled event id). */
  isCancelled(workflowId: string, runId: string, scheduledEventId: number): boolean {
    this.lastUsed = Date.now();
    return this.cancelled.has(activityKey(workflowId, runId, scheduledEventId));
  }
}

function activityKey(workflowId: string, runId: string, scheduledEventId: number): string {
  return `${workflowId}:${runId}:${scheduledEventId}`;
}
