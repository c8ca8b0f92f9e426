import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { topicCatalog } from '../catalog.js';
import type { GroupConsumer } from '../log/log.js';
import { openLog } from '../log/open-log.js';
import { replyCodec, SingleObjectSerde } from '../serde/index.js';
import { ensureTopics } from '../topic-setup.js';
import { ReplyListener } from './reply-listener.js';

test('a reply written while the listener’s group rebalances still reaches its caller (it once sought to the end and skipped it)', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-replies-'));
  const log = await openLog({ kind: 'embedded', directory });
  const catalog = topicCatalog({ shards: 2 });
  const serde = new SingleObjectSerde();
  const listener = new ReplyListener(log, catalog, serde);
  try {
    await ensureTopics(log.admin, catalog);
    await listener.start();
    // The listener's own consumer: the test stands in for a rebalance of its one-member group.
    const consumer = (listener as unknown as { consumer: GroupConsumer }).consumer;
    const waiting = listener.expect('request-1', 5_000);
    // Hold delivery so the reply is still unread when the group rebalances.
    for (const p of consumer.assignment()) consumer.pause(p);
    const reply = { requestId: 'request-1', kind: 'Accepted' as const, runId: 'run-1', payload: null, failure: null, executionStatus: null };
    const producer = await log.producer();
    await producer.send([{ topic: catalog.replies, key: 'request-1', value: await serde.encode(replyCodec, reply, catalog.replies) }]);
    await consumer.rejoin();
    assert.equal((await waiting).runId, 'run-1');
  } finally {
    await listener.stop();
    await log.close();
    await rm(directory, { recursive: true, force: true });
  }
});
