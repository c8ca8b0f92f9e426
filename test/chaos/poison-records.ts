import { workflowKey } from '../../topics/catalog.js';
import { partitionForKey } from '../../topics/partitioner.js';
import { defaultDataConverter } from '../../topics/payload/index.js';
import type { Command, CommandBody } from '../../topics/schemas/command/index.js';
import { commandCodec, frameSingleObject, SingleObjectSerde } from '../../topics/serde/index.js';
import { startRequest } from '../../sdk/client/start-options.js';
import type { SeededRandom } from './seeded-random.js';

/**
 * Poison records for the command topic, produced straight into it as a careless or hostile
 * external producer would (DESIGN.md §7: writers into the command topic are not the engine). Each
 * kind is one way an input can be wrong; the engine must dead-letter (or refuse with an error
 * reply) every one of them and never let one stop a shard.
 *
 * Pure apart from avsc's `Type.random()` (which draws from Math.random) and the start's random run id.
 */

/** The kinds, each sent in turn. */
export const POISON_KINDS = [
  'random-bytes',
  'framed-garbage',
  'random-avro',
  'unknown-fingerprint',
  'confluent-framed',
  'empty-value',
  'namespace-dot',
  'namespace-traversal',
  'task-queue-traversal',
  'oversized-payload',
  'random-3mb',
  'wrong-shard',
  'empty-key',
  'null-key',
  'huge-key',
] as const;
/** @see POISON_KINDS */
export type PoisonKind = (typeof POISON_KINDS)[number];

/** One record to produce, with the partition to produce it to. */
export interface PoisonRecord {
  readonly kind: PoisonKind;
  readonly partition: number;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  /** What is wrong with it, for the report. */
  readonly note: string;
}

const MIB = 1024 * 1024;
/** The namespace of the poison commands that are valid Avro (so they never touch a chaos workflow). */
export const POISON_NAMESPACE = 'poison';
const serde = new SingleObjectSerde();

/**
 * `count` kinds in rotation, the 3 MB record once (it is the costly one), so every kind is sent
 * when `count` ≥ the number of kinds.
 */
export function poisonSchedule(count: number): PoisonKind[] {
  if (count <= 0) return [];
  const rotation = POISON_KINDS.filter((k) => k !== 'random-3mb');
  const kinds: PoisonKind[] = Array.from({ length: count - 1 }, (_, i) => rotation[i % rotation.length]!);
  kinds.splice(Math.floor(kinds.length / 2), 0, 'random-3mb');
  return kinds;
}

/** What a builder of one kind gets: a fresh workflow id and the way to key a record as the engine does. */
interface BuildContext {
  readonly id: string;
  readonly random: SeededRandom;
  readonly shards: number;
  /** A record keyed `namespace/workflowId`, on the partition that key belongs to. */
  keyed(namespace: string, workflowId: string, value: Buffer, note: string): Omit<PoisonRecord, 'kind'>;
  /** A partition chosen at random (for records whose key names no shard). */
  anyPartition(): number;
}

/** One builder per kind: a kind without one does not compile. */
const BUILDERS: { readonly [K in PoisonKind]: (c: BuildContext) => Omit<PoisonRecord, 'kind'> } = {
  'random-bytes': (c) => ({ partition: c.anyPartition(), key: Buffer.from(`${POISON_NAMESPACE}/${c.id}`), value: c.random.bytes(c.random.between(1, 2048)), note: 'random bytes' }),
  'framed-garbage': (c) => c.keyed(POISON_NAMESPACE, c.id, frameSingleObject(commandCodec.latest.fingerprint, c.random.bytes(c.random.between(1, 512))), 'the command schema fingerprint, then random bytes'),
  'random-avro': (c) => randomAvro(c.random, c.shards),
  'unknown-fingerprint': (c) => c.keyed(POISON_NAMESPACE, c.id, frameSingleObject(c.random.bytes(8).readBigUInt64LE(), commandCodec.encodeBody(signal(c.id))), 'a valid command body under a fingerprint no schema has'),
  'confluent-framed': (c) => c.keyed(POISON_NAMESPACE, c.id, Buffer.concat([Buffer.from([0, 0, 0, 0, 7]), commandCodec.encodeBody(signal(c.id))]), 'Confluent framing (schema id 7) without a registry'),
  'empty-value': (c) => c.keyed(POISON_NAMESPACE, c.id, Buffer.alloc(0), 'an empty value'),
  'namespace-dot': (c) => c.keyed('a.b', c.id, encode(start('a.b', c.id, 'sink')), "a start in namespace 'a.b'"),
  'namespace-traversal': (c) => c.keyed('..%2F..%2Fetc', c.id, encode(start('..%2F..%2Fetc', c.id, 'sink')), "a start in namespace '..%2F..%2Fetc'"),
  'task-queue-traversal': (c) => c.keyed(POISON_NAMESPACE, c.id, encode(start(POISON_NAMESPACE, c.id, '../../q')), "a start on task queue '../../q'"),
  'oversized-payload': (c) => c.keyed(POISON_NAMESPACE, c.id, encode(start(POISON_NAMESPACE, c.id, 'sink', ['x'.repeat(2.5 * MIB)])), 'a start with a 2.5 MiB argument (over the 2 MiB payload limit)'),
  'random-3mb': (c) => ({ partition: c.anyPartition(), key: Buffer.from(`${POISON_NAMESPACE}/${c.id}`), value: c.random.bytes(3 * MIB), note: 'a 3 MiB random record' }),
  'wrong-shard': (c) => {
    const record = c.keyed(POISON_NAMESPACE, c.id, encode(signal(c.id)), '');
    const elsewhere = (record.partition + 1 + c.random.int(Math.max(1, c.shards - 1))) % c.shards;
    return { ...record, partition: elsewhere, note: `a signal keyed for shard ${record.partition}` };
  },
  'empty-key': (c) => ({ partition: c.anyPartition(), key: Buffer.alloc(0), value: encode(signal(c.id)), note: 'a valid signal with an empty key' }),
  'null-key': (c) => ({ partition: c.anyPartition(), key: null, value: encode(signal(c.id)), note: 'a valid signal with no key' }),
  'huge-key': (c) => ({ partition: c.anyPartition(), key: Buffer.from('k'.repeat(MIB)), value: encode(signal(c.id)), note: 'a valid signal with a 1 MiB key' }),
};

/** Builds one poison record of `kind` for a command topic of `shards` partitions. */
export function poisonRecord(kind: PoisonKind, random: SeededRandom, shards: number): PoisonRecord {
  const context: BuildContext = {
    id: `poison-${random.int(1e9).toString(36)}`,
    random,
    shards,
    keyed(namespace, workflowId, value, note) {
      const key = workflowKey(namespace, workflowId);
      return { partition: partitionForKey(key, shards), key: Buffer.from(key), value, note };
    },
    anyPartition: () => random.int(shards),
  };
  return { kind, ...BUILDERS[kind](context) };
}

/** A value avsc draws at random from the command schema, framed as the serde frames commands. */
function randomAvro(random: SeededRandom, shards: number): Omit<PoisonRecord, 'kind'> {
  const type = commandCodec.latest.type;
  const value = drawCommand(type);
  const key = workflowKey(value.namespace, value.workflowId);
  const framed = frameSingleObject(commandCodec.latest.fingerprint, type.toBuffer(value));
  // A random key can hash anywhere; half the time it goes where it belongs, half the time not.
  const partition = random.chance(0.5) ? partitionForKey(key, shards) : random.int(shards);
  return { partition, key: Buffer.from(key), value: framed, note: `avsc Type.random() of the command schema (${JSON.stringify(key).slice(0, 60)})` };
}

/**
 * A random value of the command type. The schema is recursive (a failure's cause is a failure), so
 * avsc's draw now and then recurses past the stack: draw again.
 */
function drawCommand(type: typeof commandCodec.latest.type): { namespace: string; workflowId: string } {
  for (let attempt = 1; ; attempt++) {
    try {
      return type.random() as unknown as { namespace: string; workflowId: string };
    } catch (error) {
      if (!(error instanceof RangeError) || attempt >= 50) throw error;
    }
  }
}

function envelope(namespace: string, workflowId: string, body: CommandBody): Command {
  return { requestId: `${workflowId}-request`, namespace, workflowId, runId: null, replyTo: null, body };
}

function encode(command: Command): Buffer {
  return serde.encodeSync(commandCodec, command);
}

/** A start built by the client's own builder with valid names, then given the names under test. */
function start(namespace: string, workflowId: string, taskQueue: string, args: unknown[] = []): Command {
  const request = startRequest({ workflowId, workflowType: 'poison', taskQueue: 'sink', args }, defaultDataConverter, 'chaos-poison');
  return envelope(namespace, workflowId, { type: 'StartWorkflowExecution', ...request, taskQueue });
}

function signal(workflowId: string): Command {
  return envelope(POISON_NAMESPACE, workflowId, { type: 'SignalWorkflowExecution', signalName: 'poison', input: [], identity: 'chaos-poison', header: {}, externalInitiator: null, childWorkflowOnly: false });
}
