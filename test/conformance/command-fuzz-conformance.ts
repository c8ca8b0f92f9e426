import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { workflowKey } from '../../topics/catalog.js';
import type { OutgoingRecord } from '../../topics/log/log.js';
import type { Command } from '../../topics/schemas/command/index.js';
import { clientCommandCases } from '../../topics/schemas/command/v1-fixture-cases-clients.js';
import { taskCommandCases } from '../../topics/schemas/command/v1-fixture-cases-tasks.js';
import { commandV2Cases } from '../../topics/schemas/command/v2-fixture-cases.js';
import { historyEventCodec, SingleObjectSerde } from '../../topics/serde/index.js';
import type { InputOutcome } from '../../processors/shard-runtime/batch-work.js';
import { ShardState, type ShardTransition } from '../../processors/shard-runtime/shard-lifecycle.js';
import { commandRecord, mutate, mutationPlans, randomAvroCommand, startCommand } from '../support/poison-records.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { waitFor } from '../support/test-env.js';
import { deadLetters } from './poison-inputs-conformance.js';

const RECORDS = 20_000;
const SEED = 20261201;
const POOL = Array.from({ length: 40 }, (_, i) => `fuzz-${i}`);

/** A valid command of every kind the fixtures hold, re-addressed to a workflow of the pool. */
function readdressed(base: Command, workflowId: string, runId: string | null): Command {
  return { ...base, requestId: randomUUID(), workflowId, runId, replyTo: null } as Command;
}

/**
 * The inputs: valid commands of every type (starts and signals of a pool of workflows, and every
 * fixture command re-addressed to them), the same mutated byte-wise, valid Avro with random
 * fields (keyed to match half the time, so they reach the state machine), random bytes, and
 * records with no key, an empty key or a huge one. All go to partition 0 of the command topic:
 * those keyed for shard 1 are forwarded there.
 */
async function fuzzRecords(topic: string): Promise<OutgoingRecord[]> {
  const fixtures = [...clientCommandCases, ...taskCommandCases, ...commandV2Cases].map((c) => c.value);
  const plans = mutationPlans(RECORDS, SEED);
  const picks = fc.sample(fc.tuple(fc.nat(99), fc.nat(POOL.length - 1), fc.nat(fixtures.length - 1), fc.uint8Array({ maxLength: 300 })), { numRuns: RECORDS, seed: SEED + 1 });
  const records: OutgoingRecord[] = [];
  for (let i = 0; i < RECORDS; i++) {
    const [kind, who, fixture, bytes] = picks[i]!;
    const workflowId = POOL[who]!;
    const valid = kind < 15 ? startCommand('default', workflowId, 'fuzzed', 'fuzz') : readdressed(fixtures[fixture]!, workflowId, null);
    if (kind < 45) records.push(await commandRecord(topic, valid));
    else if (kind < 70) records.push({ ...(await commandRecord(topic, valid)), value: mutate((await commandRecord(topic, valid)).value as Buffer, plans[i]!) });
    else if (kind < 85) {
      const nonsense = randomAvroCommand();
      records.push({ topic, key: kind % 2 === 0 ? workflowKey(nonsense.namespace, nonsense.workflowId) : `default/${workflowId}`, value: nonsense.value });
    } else if (kind < 95) records.push({ topic, key: `default/${workflowId}`, value: Buffer.from(bytes) });
    else records.push({ topic, key: [null, '', 'x'.repeat(50_000)][kind % 3]!, value: (await commandRecord(topic, valid)).value });
  }
  return records.map((r) => ({ ...r, partition: 0 }));
}

/**
 * The property of a shard under any input: 20,000 random and mutated command records fed into
 * one shard cause no shard failure, every record is applied (its transition kept, or refused as
 * the state machine refuses) or dead-lettered exactly once, and what is applied is applied once:
 * every run's history on the topic holds its event ids 1..n exactly once.
 */
export function commandFuzzConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  const transitions: ShardTransition[] = [];
  const outcomes: Array<InputOutcome & { shard: number }> = [];
  before(async () => {
    t = await startTestEngine(backend, {
      shards: 2,
      workers: false,
      engine: {
        onShardTransition: (tr) => transitions.push(tr),
        onBatch: (shard, result) => outcomes.push(...result.outcomes.map((o) => ({ ...o, shard }))),
        // Random starts name random task queues: a small limit refuses most, as it should.
        taskQueueLimits: { perNamespace: 4, total: 8 },
      },
    });
    await waitFor('both shards running', () => t.engine.node.shardReports().filter((r) => r.state === ShardState.Running).length === 2, 60_000);
  });
  after(async () => t.stop());

  test(`${RECORDS} random and mutated command records fed into a shard: no shard failure, each record applied or dead-lettered exactly once, and every run's events written once`, async () => {
    const { catalog } = t.engine;
    const records = await fuzzRecords(catalog.commands);
    const producer = await t.engine.log.producer();
    for (let i = 0; i < records.length; i += 500) await producer.send(records.slice(i, i + 500));
    const ofInput = () => outcomes.filter((o) => o.shard === 0 && o.topic === catalog.commands);
    await waitFor(`all ${RECORDS} records handled`, () => ofInput().length >= RECORDS, 240_000);
    // What the shards then send each other (forwards, and what transitions address to other
    // workflows) goes on for a moment: wait until nothing more is handled for a few seconds.
    let seen = -1;
    await waitFor('the shards to fall quiet', async () => {
      const now = outcomes.length;
      const quiet = now === seen;
      seen = now;
      if (!quiet) await new Promise((r) => setTimeout(r, 3_000));
      return quiet;
    }, 180_000);
    const positions = outcomes.map((o) => `${o.shard}:${o.topic}:${o.offset}`);
    assert.equal(new Set(positions).size, positions.length, 'no record was handled twice');
    assert.equal(ofInput().length, RECORDS, 'every record fed in was handled');
    for (let p = 0; p < catalog.shards; p++) {
      const internal: number[] = [];
      await t.engine.log.readPartition(catalog.commandsInternal, p, 0, (batch) => void internal.push(...batch.map((r) => r.offset)));
      const handledHere = new Set(outcomes.filter((o) => o.shard === p && o.topic === catalog.commandsInternal).map((o) => o.offset));
      assert.deepEqual(internal.filter((offset) => !handledHere.has(offset)), [], `every record of shard ${p}'s internal topic was handled`);
    }
    const handled = outcomes;
    const count = (fate: string) => handled.filter((o) => o.fate === fate).length;
    const deadCount = count('dead-lettered') + count('quarantined');
    assert.ok(count('applied') + count('rejected') > 1_000, `many records were applied (${count('applied')}, ${count('rejected')} refused by the state machine)`);
    assert.ok(deadCount > 1_000, `many were dead-lettered (${deadCount})`);
    assert.equal((await deadLetters(t)).length, deadCount, `the dead-letter topic holds one record per dead-lettered input`);
    assert.deepEqual(transitions.filter((m) => m.to === ShardState.Corrupted || m.to === ShardState.Migrated).map((m) => `${m.shard}:${m.to}: ${String(m.error)}`), [], 'no shard failed');

    const serde = new SingleObjectSerde();
    const keys = new Set<string>();
    const runs = new Map<string, number[]>();
    for (let p = 0; p < catalog.shards; p++) {
      await t.engine.log.readPartition(catalog.history, p, 0, async (batch) => {
        for (const r of batch) {
          const key = r.key!.toString();
          assert.ok(!keys.has(key), `history key ${key} written once`);
          keys.add(key);
          const event = await serde.decode(historyEventCodec, r.value!);
          const run = `${event.namespace}/${event.workflowId}/${event.runId}`;
          runs.set(run, [...(runs.get(run) ?? []), event.eventId]);
        }
      });
    }
    assert.ok(runs.size > 0, 'some runs were started');
    for (const [run, ids] of runs) assert.deepEqual(ids, ids.map((_, i) => i + 1), `${run}: event ids 1..n, each once`);
  });
}
