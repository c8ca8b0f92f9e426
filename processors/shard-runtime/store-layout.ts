import type { TimerRef } from '../history/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { ChangelogBinding } from '../../state-stores/shard-store.js';
import type { TopicCatalog } from '../../topics/catalog.js';

/**
 * How a shard's changelogs map into its local store: keyspaces, sortable keys, and the timer index
 * derived from state snapshots (so a state change removes its stale timers by itself).
 */

/** Keyspaces of the shard store. */
export const Keyspace = {
  state: 'm',
  history: 'h',
  visibility: 'v',
  timers: 't',
} as const;

/** Key of the shard's input positions in the state changelog; `~` cannot start a namespace. */
export const POSITIONS_KEY = '~positions';

const EVENT_ID_WIDTH = 12;
const TIME_WIDTH = 13;

/** The store key of a history event: its log key with the event id zero-padded, so a run's events sort by id. */
export function historyStoreKey(recordKey: string): string {
  const cut = recordKey.lastIndexOf('/');
  return `${recordKey.slice(0, cut)}/${recordKey.slice(cut + 1).padStart(EVENT_ID_WIDTH, '0')}`;
}

/** Store key of event `eventId` of a run. */
export function eventStoreKey(workflowKey: string, runId: string, eventId: number): string {
  return `${workflowKey}/${runId}/${String(eventId).padStart(EVENT_ID_WIDTH, '0')}`;
}

/** A due timer as the processor finds it in the index. */
export interface TimerEntry {
  readonly workflowKey: string;
  readonly timer: TimerRef;
}

/** Timer-index key: fire time first, so a range scan up to 'now' finds every due timer in order. */
export function timerStoreKey(workflowKey: string, timer: TimerRef): string {
  return `${String(timer.fireTime).padStart(TIME_WIDTH, '0')}/${workflowKey}/${timer.kind}/${timer.identity}`;
}

/**
 * The changelog bindings of a shard store. `timersOfSnapshot` lists a snapshot's deadlines: from
 * the state the owner encoded it from when given (its own writes), else by decoding it (restores).
 */
export function shardBindings(
  catalog: TopicCatalog,
  timersOfSnapshot: (value: Buffer, state?: MutableStateSnapshot) => Promise<readonly TimerRef[]>,
): ChangelogBinding[] {
  return [
    {
      topic: catalog.state,
      keyspace: Keyspace.state,
      derive: async (key, value, decoded) => {
        if (key === POSITIONS_KEY) return [];
        // Only the shard's own snapshot records carry `decoded`, the state they encode; a state and
        // its decoded snapshot are equal (replay.property.test.ts: every state survives Avro unchanged).
        return (await timersOfSnapshot(value, decoded as MutableStateSnapshot | undefined)).map((timer) => ({
          keyspace: Keyspace.timers,
          key: timerStoreKey(key, timer),
          value: Buffer.from(JSON.stringify({ workflowKey: key, timer } satisfies TimerEntry)),
        }));
      },
    },
    { topic: catalog.history, keyspace: Keyspace.history, storeKey: historyStoreKey },
    { topic: catalog.visibility, keyspace: Keyspace.visibility },
  ];
}
