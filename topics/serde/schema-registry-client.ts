/**
 * The two registry operations the serde needs, so it can be tested with an in-memory fake and
 * does not depend on a particular client library (`confluentSchemaRegistryClient` adapts
 * `@kafkajs/confluent-schema-registry`).
 */
export interface SchemaRegistryClient {
  /**
   * Registers an Avro schema under a subject (idempotent: an identical schema gets its existing
   * id) and returns its global id.
   * @throws SchemaRegistryError
   */
  register(subject: string, schemaJson: string): Promise<number>;
  /**
   * The Avro schema (parsed JSON) with this global id.
   * @throws SchemaRegistryError, with status 404 when the id is unknown
   */
  getSchema(id: number): Promise<unknown>;
}

/** Chooses the registry subject of a topic's values. */
export type SubjectNameStrategy = (topic: string, recordFullName: string) => string;

/** Confluent's default TopicNameStrategy: `<topic>-value`. One record kind per topic. */
export const topicNameStrategy: SubjectNameStrategy = (topic) => `${topic}-value`;

/**
 * Confluent's TopicRecordNameStrategy: `<topic>-<record full name>`. Needed for `logbook.state`,
 * which carries two record kinds (snapshots and shard positions) that would otherwise fight over
 * one subject's compatibility check.
 */
export const topicRecordNameStrategy: SubjectNameStrategy = (topic, recordFullName) => `${topic}-${recordFullName}`;

/** The records of `logbook.state`, which shares one topic between two record kinds. */
const STATE_RECORDS = new Set(['logbook.MutableStateSnapshot', 'logbook.ShardPositions']);

/**
 * Logbook's subjects: `<topic>-value` (Confluent's default) for every topic of one record kind,
 * `<topic>-<record full name>` for the two record kinds of `logbook.state`.
 */
export const logbookSubjectStrategy: SubjectNameStrategy = (topic, recordFullName) =>
  STATE_RECORDS.has(recordFullName) ? topicRecordNameStrategy(topic, recordFullName) : topicNameStrategy(topic, recordFullName);
