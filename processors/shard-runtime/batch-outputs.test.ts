import assert from 'node:assert/strict';
import { test } from 'node:test';
import { topicCatalog } from '../../topics/catalog.js';
import type { Command } from '../../topics/schemas/command/index.js';
import { commandCodec, SingleObjectSerde } from '../../topics/serde/index.js';
import { BatchOutputs } from './batch-outputs.js';

test('a command for another workflow is written to the internal commands topic on the target\'s shard, keyed ns/workflowId, and not queued as changelog', async () => {
  const catalog = topicCatalog({ shards: 8 });
  const serde = new SingleObjectSerde();
  const outputs = new BatchOutputs(catalog, 0, serde);
  const targets = ['order-1', 'order-2', 'order-3', 'order-4', 'order-5', 'order-6'];
  const commands: Command[] = targets.map((workflowId, i) => ({
    requestId: `signal-external:run-a:${i + 5}`, namespace: 'default', workflowId, runId: null, replyTo: null,
    body: {
      type: 'SignalWorkflowExecution', signalName: 'go', input: [], identity: 'w', header: {}, childWorkflowOnly: false,
      externalInitiator: { namespace: 'default', workflowId: 'a', runId: 'run-a', initiatedEventId: i + 5 },
    },
  }));
  const records = await outputs.encodeCommands(commands);
  outputs.add(records);
  assert.ok(new Set(records.map((r) => r.partition)).size > 1, 'the targets span several shards');
  for (const [i, record] of records.entries()) {
    assert.equal(record.topic, catalog.commandsInternal);
    assert.equal(record.key, `default/${targets[i]}`);
    assert.equal(record.partition, catalog.shardOf('default', targets[i]!));
    assert.deepEqual(await serde.decode(commandCodec, record.value!), commands[i]);
  }
  assert.equal(outputs.changelog.length, 0);
});
