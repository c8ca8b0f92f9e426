import type { TopicCatalog } from '../catalog.js';
import type { RecordCodec } from './record-codec.js';
import { auditRecordCodec, commandCodec, historyEventCodec, mutableStateSnapshotCodec, namespaceCodec, replyCodec, shardPositionsCodec, visibilityRowCodec } from './record-codecs.js';
import type { RegistrySerde } from './registry-serde.js';

/** The record kinds each of a deployment's fixed topics carries (task topics are per queue, registered on first write). */
export function engineTopicRecords(catalog: TopicCatalog): Array<{ topic: string; codec: RecordCodec<unknown> }> {
  const pairs: Array<[string, RecordCodec<unknown>]> = [
    [catalog.commands, commandCodec],
    [catalog.commandsInternal, commandCodec],
    [catalog.history, historyEventCodec],
    [catalog.state, mutableStateSnapshotCodec],
    [catalog.state, shardPositionsCodec],
    [catalog.visibility, visibilityRowCodec],
    [catalog.replies, replyCodec],
    [catalog.namespaces, namespaceCodec],
    [catalog.audit, auditRecordCodec],
  ];
  return pairs.map(([topic, codec]) => ({ topic, codec }));
}

/**
 * Registers the latest schema of every record kind of the deployment's fixed topics, reporting
 * each subject and id; fails on the first the registry refuses.
 * @throws SchemaRegistryError
 */
export async function registerEngineSchemas(serde: RegistrySerde, catalog: TopicCatalog, onProgress?: (line: string) => void): Promise<void> {
  for (const { topic, codec } of engineTopicRecords(catalog)) {
    const id = await serde.register(codec, topic);
    onProgress?.(`schema registry: ${codec.fullName} v${codec.latest.version} under subject ${serde.subjectOf(codec, topic)} (id ${id})`);
  }
}
