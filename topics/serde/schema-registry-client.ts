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
