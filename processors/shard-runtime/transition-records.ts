import type { OutgoingRecord } from '../../topics/log/log.js';
import { recordSize } from '../../topics/log/record-size.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { Transition } from '../history/index.js';
import type { BatchWork } from './batch-work.js';
import { InputFailure, InputStep, inStep } from './input-steps.js';
import { purgeRecords } from './run-purge.js';
import { eventStoreKey, Keyspace } from './store-layout.js';

/**
 * The records one transition writes, each step isolated (see input-steps.ts): encode its events,
 * replies, commands and rows; build its tasks; check every record's size; check the history
 * guard. Throws {@link InputFailure} naming the step; nothing is added to the batch here, so a
 * failed transition leaves no trace.
 */
export async function transitionRecords(work: BatchWork, key: string, before: MutableStateSnapshot | null, transition: Transition): Promise<TransitionRecords> {
  const { outputs, tasks, ctx } = work;
  const encoded = await inStep(InputStep.encode, async () => [
    ...(await outputs.encodeEvents(transition.events)),
    ...(await outputs.encodeReplies(transition.replies)),
    ...(await outputs.encodeCommands(transition.commands)),
    ...(await outputs.encodeVisibility(transition.closedRun?.visibility ?? null)),
    ...(await outputs.encodeVisibility(transition.visibility)),
    ...(transition.purgedRun ? await purgeRecords(ctx.store, ctx.catalog, ctx.shard, key) : []),
  ]);
  const taskRecords = await inStep(InputStep.tasks, () => tasks.encode(transition, key));
  const records = [...encoded, ...taskRecords];
  // The snapshot the input leaves is checked too: buffered signals live in it until appended.
  const snapshot = transition.changed && transition.state ? await inStep(InputStep.encode, () => outputs.encodeSnapshot(key, transition.state!)) : null;
  await inStep(InputStep.size, () => {
    const tooLarge = [...records, ...(snapshot ? [snapshot] : [])].find((r) => recordSize(r) > ctx.log.maxRecordBytes);
    if (tooLarge) {
      throw new InputFailure(InputStep.size, 'OUTPUT_TOO_LARGE', `applying it would write a ${recordSize(tooLarge)}-byte record to ${tooLarge.topic}, over the limit of ${ctx.log.maxRecordBytes} bytes`);
    }
  });
  const hasHistory = async (runId: string) => (await ctx.store.get(Keyspace.history, eventStoreKey(key, runId, 1))) !== undefined;
  await inStep(InputStep.guard, () => guardHistory(key, before, transition.events, hasHistory));
  return { records, snapshot };
}

/** What one transition writes: its records, and the snapshot of the state it leaves (null when unchanged or deleted). */
export interface TransitionRecords {
  readonly records: OutgoingRecord[];
  readonly snapshot: OutgoingRecord | null;
}

/**
 * DESIGN.md §3's guard: a run's event ids are contiguous and each is written once. The current
 * run's events continue right after its last event; a new run's (a start, continue-as-new, a
 * reset) begin at 1 and its id must not hold history already, or the events would overwrite an
 * earlier run's in the compacted topic. Stale state can therefore never rewrite committed history.
 */
export async function guardHistory(key: string, before: MutableStateSnapshot | null, events: readonly HistoryEvent[], hasHistory: (runId: string) => Promise<boolean>): Promise<void> {
  const byRun = new Map<string, number[]>();
  for (const event of events) byRun.set(event.runId, [...(byRun.get(event.runId) ?? []), event.eventId]);
  for (const [runId, ids] of byRun) {
    const current = before?.executionInfo.runId === runId;
    const first = current ? before!.executionInfo.lastEventId + 1 : 1;
    ids.forEach((id, i) => {
      if (id !== first + i) {
        throw new InputFailure(InputStep.guard, 'HISTORY_GUARD', `run ${runId} of ${key} would get event ${id} where ${first + i} is next (${ids.join(', ')}): history is contiguous and written once`);
      }
    });
    if (!current && (await hasHistory(runId))) {
      throw new InputFailure(InputStep.guard, 'HISTORY_GUARD', `run ${runId} of ${key} already has history: a new run may not reuse an earlier run's id`);
    }
  }
}
