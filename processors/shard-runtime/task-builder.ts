import type { TopicCatalog } from '../../topics/catalog.js';
import { LogbookError } from '../../topics/errors.js';
import type { OutgoingRecord } from '../../topics/log/log.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { Serde } from '../../topics/serde/index.js';
import { activityControlCodec, activityTaskCodec, historyEventCodec, workflowTaskCodec } from '../../topics/serde/index.js';
import type { ShardStore } from '../../state-stores/shard-store.js';
import type { TaskIntent, Transition } from '../history/index.js';
import { eventStoreKey, Keyspace } from './store-layout.js';
import type { TaskTopics } from '../../topics/task-topics.js';
import { recordSize } from '../../topics/log/record-size.js';

/**
 * Turns the state machine's task intents into task records. A workflow task carries the events
 * the worker has not seen; an activity task carries the input recorded in its ActivityTaskScheduled
 * event. Events come from this batch (not yet in the store) or from the shard's history index.
 * A task queue's topics are created the first time a task goes to it (bounded per namespace, see
 * TaskTopics): a refusal fails the input that would dispatch there, not the batch.
 */
export class TaskBuilder {
  private readonly batchEvents = new Map<string, Map<number, HistoryEvent>>();

  constructor(private readonly ctx: { catalog: TopicCatalog; serde: Serde; store: ShardStore; taskTopics: TaskTopics; maxRecordBytes: number }) {}

  /** Records a transition's events as written in this batch. */
  remember(key: string, events: readonly HistoryEvent[]): void {
    for (const event of events) this.runEvents(key, event.runId).set(event.eventId, event);
  }

  /** Encodes the task records of a transition (its own events count as written), creating new queues' topics. */
  async encode(transition: Transition, key: string): Promise<OutgoingRecord[]> {
    const out: OutgoingRecord[] = [];
    for (const intent of transition.tasks) {
      await this.ctx.taskTopics.ensure(intent.namespace, intent.taskQueue);
      // A transition that replaces the run (continue-as-new) holds events of two runs: ids repeat.
      const pending = new Map(transition.events.filter((e) => e.runId === intent.runId).map((e) => [e.eventId, e]));
      out.push(await this.encodeIntent(intent, key, pending));
    }
    return out;
  }

  private async encodeIntent(intent: TaskIntent, key: string, pending: Map<number, HistoryEvent>): Promise<OutgoingRecord> {
    const { catalog, serde } = this.ctx;
    const topics = catalog.taskTopics(intent.namespace, intent.taskQueue);
    switch (intent.type) {
      case 'WorkflowTask': {
        // Start two events before the last completion: a worker that ran the previous task has seen
        // up to its Scheduled event (written then, or with the completion for a transient retry),
        // so the task always overlaps its cache and the worker skips what it already applied.
        const events: HistoryEvent[] = [];
        for (let id = Math.max(1, intent.fromEventId - 2); id <= intent.lastEventId; id++) events.push(await this.event(key, intent.runId, id, pending));
        const { type: _type, fromEventId: _from, ...task } = intent;
        const record = { topic: topics.workflow, key, value: await serde.encode(workflowTaskCodec, { ...task, events, queries: [] }, topics.workflow) };
        if (recordSize(record) <= this.ctx.maxRecordBytes) return record;
        // The new events do not fit in one record (say two large signals buffered): send the task
        // without them. The worker then pages the run's history up to lastEventId from the shard,
        // as it does on any cache miss, so the run goes on instead of its task failing for ever.
        return { topic: topics.workflow, key, value: await serde.encode(workflowTaskCodec, { ...task, events: [], queries: [] }, topics.workflow) };
      }
      case 'ActivityTask': {
        const scheduled = await this.event(key, intent.runId, intent.scheduledEventId, pending);
        if (scheduled.attributes.type !== 'ActivityTaskScheduled') {
          throw new LogbookError('HISTORY_MISMATCH', `event ${intent.scheduledEventId} of ${key}/${intent.runId} is ${scheduled.attributes.type}, not ActivityTaskScheduled`);
        }
        const { type: _type, ...task } = intent;
        const value = await serde.encode(
          activityTaskCodec,
          { ...task, workflowType: scheduled.workflowType, input: scheduled.attributes.input, header: scheduled.attributes.header, idempotencyKey: `${intent.workflowId}:${intent.activityId}` },
          topics.activity,
        );
        return { topic: topics.activity, key: `${intent.workflowId}:${intent.activityId}`, value };
      }
      case 'CancelActivity': {
        const { type: _type, taskQueue: _queue, ...control } = intent;
        return { topic: topics.control, key: `${intent.workflowId}:${intent.activityId}`, value: await serde.encode(activityControlCodec, control, topics.control) };
      }
    }
  }

  private async event(key: string, runId: string, eventId: number, pending: Map<number, HistoryEvent>): Promise<HistoryEvent> {
    const found = pending.get(eventId) ?? this.runEvents(key, runId).get(eventId);
    if (found) return found;
    const raw = await this.ctx.store.get(Keyspace.history, eventStoreKey(key, runId, eventId));
    if (!raw) throw new LogbookError('HISTORY_MISSING', `event ${eventId} of ${key}/${runId} is not in the shard's history index`);
    return this.ctx.serde.decode(historyEventCodec, raw);
  }

  private runEvents(key: string, runId: string): Map<number, HistoryEvent> {
    const id = `${key}/${runId}`;
    let events = this.batchEvents.get(id);
    if (!events) this.batchEvents.set(id, (events = new Map()));
    return events;
  }
}
