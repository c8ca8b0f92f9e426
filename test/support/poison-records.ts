import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { workflowKey } from '../../topics/catalog.js';
import type { OutgoingRecord } from '../../topics/log/log.js';
import type { Command } from '../../topics/schemas/command/index.js';
import { commandCodec, frameSingleObject, SingleObjectSerde } from '../../topics/serde/index.js';
import { startRequest } from '../../sdk/client/start-options.js';
import { defaultDataConverter } from '../../topics/payload/index.js';

/**
 * Records a careless or hostile producer can write straight into the command topic, for tests
 * that prove a shard isolates whatever a topic holds: the requests that once broke shards for
 * good (names that cannot be part of a topic name), random bytes, valid Avro with nonsense
 * fields, mutations of valid commands, keys for another shard, empty and huge keys.
 */

const serde = new SingleObjectSerde();

/**
 * A start command as a producer writes it — with the names given, even ones no client would send
 * (the clients refuse them before sending; a producer of its own may not).
 */
export function startCommand(namespace: string, workflowId: string, workflowType: string, taskQueue: string): Command {
  const start = startRequest({ namespace: 'default', workflowId: 'w', workflowType: 'w', taskQueue: 'q', args: [] }, defaultDataConverter, 'poison-test');
  return { requestId: randomUUID(), namespace, workflowId, runId: null, replyTo: null, body: { type: 'StartWorkflowExecution', ...start, workflowType, taskQueue } };
}

/** The three starts that once broke shards for good: namespace `a.b`, namespace `..%2F..%2Fetc`, task queue `../../q`. */
export function brickingStarts(): Command[] {
  return [
    startCommand('a.b', 'brick-1', 'order', 'orders'),
    startCommand('../../etc', 'brick-2', 'order', 'orders'),
    startCommand('default', 'brick-3', 'order', '../../q'),
  ];
}

/** A command as the record a producer keyed by `ns/workflowId` writes. */
export async function commandRecord(topic: string, command: Command, partition?: number): Promise<OutgoingRecord> {
  return {
    topic,
    key: workflowKey(command.namespace, command.workflowId),
    value: await serde.encode(commandCodec, command, topic),
    ...(partition === undefined ? {} : { partition }),
  };
}

/** Valid Avro of the Command schema with random fields (avsc's `Type.random`), framed as the serde frames it. */
export function randomAvroCommand(): { value: Buffer; namespace: string; workflowId: string } {
  const latest = commandCodec.latest;
  const value = randomValueOf(latest.type) as { namespace: string; workflowId: string };
  return { value: frameSingleObject(latest.fingerprint, latest.type.toBuffer(value)), namespace: value.namespace, workflowId: value.workflowId };
}

/**
 * A random value of an Avro type. Recursive records (a failure's cause is a failure) can make
 * avsc's generator recurse past the stack now and then; such a draw is discarded and drawn again.
 */
function randomValueOf(type: { random(): unknown }): unknown {
  for (let draw = 1; ; draw++) {
    try {
      return type.random();
    } catch (error) {
      if (!(error instanceof RangeError) || draw >= 20) throw error;
    }
  }
}

/** How a valid record is mutated. */
type Mutation = { kind: 'flip'; at: number; bits: number } | { kind: 'truncate'; to: number } | { kind: 'append'; bytes: Uint8Array } | { kind: 'fingerprint'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bits: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), to: fc.nat() }),
  fc.record({ kind: fc.constant('append' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }) }),
  fc.record({ kind: fc.constant('fingerprint' as const), at: fc.integer({ min: 2, max: 9 }) }),
);

/** Applies mutations to a copy of `value`. */
export function mutate(value: Buffer, mutations: readonly Mutation[]): Buffer {
  let out = Buffer.from(value);
  for (const m of mutations) {
    if (out.length === 0) break;
    if (m.kind === 'flip') out[m.at % out.length] = out[m.at % out.length]! ^ m.bits;
    else if (m.kind === 'truncate') out = out.subarray(0, m.to % out.length);
    else if (m.kind === 'append') out = Buffer.concat([out, m.bytes]);
    else if (out.length > m.at) out[m.at] = out[m.at]! ^ 0xff;
  }
  return out;
}

/** Mutation plans drawn with a fixed seed, so a failing run can be replayed. */
export function mutationPlans(count: number, seed: number): Mutation[][] {
  return fc.sample(fc.array(mutation, { minLength: 1, maxLength: 4 }), { numRuns: count, seed });
}

/** A plan of poison records for the command topic, each with what the shard should do with it. */
export interface PoisonPlan {
  readonly records: OutgoingRecord[];
  /** Keys of the records a shard must dead-letter (by position in `records`). */
  readonly mustDeadLetter: ReadonlySet<number>;
}

/** One of each kind of poison, for the command topic of `shards` shards. */
export async function poisonSampler(topic: string, options: { maxRecordBytes: number; partition?: number }): Promise<PoisonPlan> {
  const records: OutgoingRecord[] = [];
  const dead = new Set<number>();
  const add = (record: OutgoingRecord, mustDie: boolean) => {
    if (mustDie) dead.add(records.length);
    records.push({ ...record, ...(options.partition === undefined ? {} : { partition: options.partition }) });
  };
  for (const command of brickingStarts()) add(await commandRecord(topic, command), true);
  add({ topic, key: 'default/random-bytes', value: Buffer.from(fc.sample(fc.uint8Array({ minLength: 1, maxLength: 512 }), { numRuns: 1, seed: 7 })[0]!) }, true);
  const nonsense = randomAvroCommand();
  add({ topic, key: 'default/nonsense', value: nonsense.value }, true);
  const valid = await commandRecord(topic, startCommand('default', 'mutated', 'order', 'orders'));
  add({ ...valid, value: mutate(valid.value as Buffer, [{ kind: 'truncate', to: 20 }]) }, true);
  add({ topic, key: null, value: valid.value }, true);
  add({ topic, key: 'default/no-value', value: null }, true);
  add({ topic, key: '', value: valid.value }, true);
  add({ topic, key: `default/${'k'.repeat(100_000)}`, value: valid.value }, true);
  // Close to the record limit: valid framing, nonsense body.
  add({ topic, key: 'default/huge', value: Buffer.alloc(options.maxRecordBytes - 64 * 1024, 0x41) }, true);
  return { records, mustDeadLetter: dead };
}
