// A plain external producer, as the poison's real authors would use: not the engine's log client.
import type { Producer } from 'kafkajs';
import { Kafka, logLevel } from '../../topics/log/kafka/kafkajs.js';
import { poisonRecord, poisonSchedule, type PoisonKind } from './poison-records.js';
import type { SeededRandom } from './seeded-random.js';

/**
 * Produces the poison records of a run straight into the command topic with a plain kafkajs
 * producer (acks from all in-sync replicas), spread evenly over the load phase, and remembers where
 * each landed so the dead-letter topic can be matched against them.
 */

/** A poison record that Kafka accepted (or refused). */
export interface SentPoison {
  readonly kind: PoisonKind;
  readonly note: string;
  readonly partition: number;
  /** Its offset in the command topic; null when Kafka refused it. */
  readonly offset: number | null;
  readonly sentAt: number;
  readonly keyBytes: number | null;
  readonly valueBytes: number | null;
  readonly error?: string;
}

/** Options of {@link sendPoison}. */
export interface PoisonPlan {
  readonly brokers: readonly string[];
  readonly topic: string;
  readonly shards: number;
  readonly count: number;
  readonly random: SeededRandom;
  readonly begin: number;
  readonly until: number;
  readonly isStopped: () => boolean;
  readonly onSent: (sent: SentPoison) => void;
}

/** Sends the plan's records; resolves when all are sent or the run stopped. */
export async function sendPoison(plan: PoisonPlan): Promise<void> {
  if (plan.count === 0) return;
  const kafka = new Kafka({ clientId: 'chaos-poison', brokers: [...plan.brokers], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    const kinds = poisonSchedule(plan.count);
    const every = (plan.until - plan.begin) / kinds.length;
    for (const [i, kind] of kinds.entries()) {
      const at = plan.begin + (i + 0.5) * every;
      await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
      if (plan.isStopped()) break;
      plan.onSent(await sendOne(producer, plan, kind));
    }
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
}

async function sendOne(producer: Producer, plan: PoisonPlan, kind: PoisonKind): Promise<SentPoison> {
  const record = poisonRecord(kind, plan.random, plan.shards);
  const base = { kind, note: record.note, partition: record.partition, sentAt: Date.now(), keyBytes: record.key?.length ?? null, valueBytes: record.value?.length ?? null };
  try {
    const [metadata] = await producer.send({ topic: plan.topic, acks: -1, messages: [{ key: record.key, value: record.value, partition: record.partition }] });
    return { ...base, offset: Number(metadata!.baseOffset) };
  } catch (error) {
    return { ...base, offset: null, error: (error as Error).message };
  }
}
