import type { PoisonFigures } from './chaos-verdict.js';
import type { PoisonKind } from './poison-records.js';
import type { SentPoison } from './poison-sender.js';
import type { FailureGroup } from './shard-failures.js';

/**
 * Which poison records were dead-lettered: a dead letter names the topic, partition and offset of
 * the input it replaces (topics/dead-letter.ts), so each is matched to the record the harness sent
 * there. Dead letters of other inputs (the fuzz's, the workload's) are counted apart.
 */

/** One record of the dead-letter topic, as the audit reads it. */
export interface DeadLetter {
  readonly offset: number;
  readonly code: string;
  readonly reason: string;
  readonly sourceTopic: string;
  readonly sourcePartition: number | null;
  readonly sourceOffset: number | null;
  readonly valueBytes: number;
}

/** The figures, and the poison records that were neither refused by Kafka nor dead-lettered (applied or ignored by the engine). */
export interface PoisonMatch {
  readonly figures: PoisonFigures;
  readonly notDeadLettered: readonly SentPoison[];
  /** Dead-letter codes and how often each came, over all dead letters. */
  readonly codes: Readonly<Record<string, number>>;
  /** Dead letters of the harness's poison, with the kind of record each replaces (first 100). */
  readonly matched: ReadonlyArray<DeadLetter & { readonly kind: string }>;
}

/** Matches the dead letters to the poison the harness sent into `commandsTopic`. */
export function matchPoison(sent: readonly SentPoison[], letters: readonly DeadLetter[], commandsTopic: string): PoisonMatch {
  const bySource = new Map<string, DeadLetter>();
  const codes: Record<string, number> = {};
  for (const letter of letters) {
    codes[letter.code] = (codes[letter.code] ?? 0) + 1;
    if (letter.sourceTopic === commandsTopic) bySource.set(`${letter.sourcePartition}/${letter.sourceOffset}`, letter);
  }
  const byKind: Record<string, { sent: number; deadLettered: number }> = {};
  const notDeadLettered: SentPoison[] = [];
  const matched: Array<DeadLetter & { kind: string }> = [];
  let deadLettered = 0;
  for (const poison of sent) {
    const kind = (byKind[poison.kind] ??= { sent: 0, deadLettered: 0 });
    if (poison.offset === null) continue;
    kind.sent++;
    const letter = bySource.get(`${poison.partition}/${poison.offset}`);
    if (!letter) {
      notDeadLettered.push(poison);
      continue;
    }
    kind.deadLettered++;
    deadLettered++;
    if (matched.length < 100) matched.push({ ...letter, kind: poison.kind });
  }
  const accepted = sent.filter((p) => p.offset !== null).length;
  return {
    figures: { sent: accepted, failedToSend: sent.length - accepted, deadLettered, byKind, otherDeadLetters: letters.length - deadLettered },
    notDeadLettered,
    codes,
    matched,
  };
}

/** Failure messages that name what a poison kind carries; other messages could come from any kind. */
const MESSAGE_KINDS: ReadonlyArray<readonly [RegExp, readonly PoisonKind[]]> = [
  [/namespace 'a\.b'/, ['namespace-dot']],
  [/namespace '\.\.%2F\.\.%2Fetc'/, ['namespace-traversal']],
  [/task queue '\.\.\/\.\.\/q'/, ['task-queue-traversal']],
  [/bytes, over the limit|too large|larger than/, ['random-3mb', 'oversized-payload', 'huge-key']],
  // Any other refused name is none the poison carries: the fuzz sent it through the gateway.
  [/may contain only/, []],
];

/**
 * For each node and shard that failed for an input, the poison record that most likely did it: the
 * last one sent to that partition before the first such failure whose kind fits the message (a
 * refused name names it), or for a record too large, the largest that fits its size. Null when none fits: the input came from elsewhere (the HTTP fuzz sends
 * the same hostile names through the gateway) or was one nobody foresaw.
 */
export function suspectPoison(groups: readonly FailureGroup[], poison: readonly SentPoison[]): Record<string, { readonly message: string; readonly suspect: SentPoison | null }> {
  const out: Record<string, { message: string; suspect: SentPoison | null }> = {};
  for (const group of groups) {
    const key = `${group.node} shard ${group.shard}`;
    if (group.cause !== 'input' || key in out) continue;
    const kinds = MESSAGE_KINDS.find(([pattern]) => pattern.test(group.message))?.[1];
    // "a record … is N bytes": only a poison record no larger than that can have become it.
    const bytes = Number(/ is (\d+) bytes/.exec(group.message)?.[1] ?? Infinity);
    const size = (p: SentPoison) => (p.keyBytes ?? 0) + (p.valueBytes ?? 0);
    const fits = (p: SentPoison) => p.partition === group.shard && p.sentAt <= group.firstAt && p.offset !== null && (!kinds || kinds.includes(p.kind)) && size(p) <= bytes;
    const candidates = poison.filter(fits);
    const suspect = Number.isFinite(bytes) ? candidates.sort((a, b) => size(b) - size(a))[0] : candidates.at(-1);
    out[key] = { message: group.message, suspect: suspect ?? null };
  }
  return out;
}
