import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topicCatalog } from './catalog.js';
import { LogbookError, RetriableLogError, TopicMismatchError } from './errors.js';
import type { TopicAdmin, TopicDescription, TopicSpec } from './log/log.js';
import { ensureTopics } from './topic-setup.js';

const catalog = topicCatalog({ shards: 4 });
const fast = { pollMs: 5, progressEveryMs: 10 };

/**
 * An admin over a cluster that is slow to settle, as a fresh multi-node one is: a created topic
 * becomes visible only `visibleAfter` describes later and its partitions get leaders `ledAfter`
 * describes later; `failures` are thrown by the first describes.
 */
function settlingAdmin(options: { visibleAfter?: number; ledAfter?: number; failures?: Error[]; existing?: TopicSpec[] } = {}) {
  const created = new Map<string, { spec: TopicSpec; at: number }>((options.existing ?? []).map((spec) => [spec.name, { spec, at: -100 }]));
  let describes = 0;
  const creates: string[][] = [];
  const admin: TopicAdmin = {
    async createTopics(specs) {
      creates.push(specs.map((s) => s.name));
      for (const spec of specs) if (!created.has(spec.name)) created.set(spec.name, { spec, at: describes });
    },
    async describeTopics(names) {
      const failure = options.failures?.shift();
      if (failure) throw failure;
      describes++;
      const result = new Map<string, TopicDescription>();
      for (const name of names) {
        const topic = created.get(name);
        if (!topic || describes - topic.at < (options.visibleAfter ?? 0)) continue;
        const led = describes - topic.at >= (options.ledAfter ?? 0);
        result.set(name, { name, partitions: topic.spec.partitions, partitionsWithoutLeader: led ? 0 : topic.spec.partitions });
      }
      return result;
    },
    deleteTopics: async () => undefined,
    listTopics: async () => [...created.keys()],
    groupMembers: async () => 0,
    groupOffsets: async () => new Map(),
    brokerCount: async () => 3,
  };
  return { admin, creates };
}

test('start-up waits until every fixed topic is visible and every partition has a leader, retrying retriable errors, with progress lines', async () => {
  const { admin } = settlingAdmin({ visibleAfter: 4, ledAfter: 8, failures: [new RetriableLogError('This server does not host this topic-partition')] });
  const lines: string[] = [];
  await ensureTopics(admin, catalog, { ...fast, onProgress: (line) => lines.push(line) });
  const found = await admin.describeTopics(catalog.fixedTopics.map((t) => t.name));
  assert.equal(found.size, catalog.fixedTopics.length);
  assert.ok([...found.values()].every((t) => t.partitionsWithoutLeader === 0));
  assert.ok(lines.length > 0, 'it said it was waiting');
  assert.match(lines.join('\n'), /waiting for the topics of prefix 'logbook': .*(not visible yet|without a leader|retrying after)/);
});

test('topics that never become ready fail start-up at the deadline, naming what is missing', async () => {
  const { admin } = settlingAdmin({ ledAfter: Number.MAX_SAFE_INTEGER });
  await assert.rejects(ensureTopics(admin, catalog, { ...fast, timeoutMs: 100 }), (error: unknown) => {
    assert.ok(error instanceof RetriableLogError);
    assert.match(error.message, /not ready after 0 s: logbook\.commands \(4 of 4 partitions without a leader\)/);
    return true;
  });
});

test('a shard count other than the existing topics\' is refused at once, before anything is created', async () => {
  const existing = topicCatalog({ shards: 8 }).fixedTopics.filter((t) => t.name === catalog.history);
  const { admin, creates } = settlingAdmin({ existing });
  await assert.rejects(ensureTopics(admin, catalog, fast), TopicMismatchError);
  assert.deepEqual(creates, []);
});

test('an error that is not retriable fails start-up at once', async () => {
  const { admin, creates } = settlingAdmin({ failures: [new LogbookError('LOG_ERROR', 'authorisation failed')] });
  await assert.rejects(ensureTopics(admin, catalog, fast), /authorisation failed/);
  assert.deepEqual(creates, []);
});
