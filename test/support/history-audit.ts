import assert from 'node:assert/strict';
import type { TopicCatalog } from '../../topics/catalog.js';
import type { Log } from '../../topics/log/log.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { SingleObjectSerde, historyEventCodec } from '../../topics/serde/index.js';

/**
 * Reads the whole history topic read_committed, as an analyst would, and groups the events by run.
 * Every record is kept, so a duplicated or overwritten event shows up as two records.
 */
export async function readHistories(log: Log, catalog: TopicCatalog): Promise<Map<string, HistoryEvent[]>> {
  const serde = new SingleObjectSerde();
  const runs = new Map<string, HistoryEvent[]>();
  for (let p = 0; p < catalog.shards; p++) {
    await log.readPartition(catalog.history, p, 0, async (records) => {
      for (const record of records) {
        if (!record.value) continue;
        const event = await serde.decode(historyEventCodec, record.value);
        assert.equal(catalog.shardOf(event.namespace, event.workflowId), p, `event of ${event.workflowId} on its own shard`);
        const key = `${event.workflowId}/${event.runId}`;
        runs.set(key, [...(runs.get(key) ?? []), event]);
      }
    });
  }
  return runs;
}

/** Fails unless every run's events are 1..n exactly once, in order, and the run closed as expected. */
export function assertHistoriesExact(runs: Map<string, HistoryEvent[]>, expectedClose = 'WorkflowExecutionCompleted'): void {
  for (const [run, events] of runs) {
    events.forEach((e, i) => assert.equal(e.eventId, i + 1, `${run}: event ${i + 1} appears once, in order (found ${e.eventId})`));
    assert.equal(events.at(-1)?.attributes.type, expectedClose, `${run} closed with ${expectedClose}`);
    const scheduled = events.filter((e) => e.attributes.type === 'ActivityTaskScheduled').map((e) => e.eventId);
    const completions = events.flatMap((e) => (e.attributes.type === 'ActivityTaskCompleted' ? [e.attributes.scheduledEventId] : []));
    assert.deepEqual([...completions].sort((a, b) => a - b), scheduled, `${run}: each activity completed exactly once`);
  }
}
