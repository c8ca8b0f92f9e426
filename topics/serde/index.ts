/**
 * Encoding of topic values: Avro bodies per record, single-object and Confluent framing, the
 * schema registry, fingerprints, size limits and the errors the engine dead-letters on.
 * @module
 */
export { parsingCanonicalForm } from './canonical-form.js';
export {
  confluentSchemaRegistryClient,
  type ConfluentSchemaRegistryClientOptions,
} from './confluent-schema-registry-client.js';
export { crc64Avro, crc64AvroEmpty } from './crc64-avro.js';
export { DecodeError, DecodeErrorCode } from './decode-error.js';
export { EncodeError, EncodeErrorCode } from './encode-error.js';
export { RecordCodec, type CodecVersion, type WriterSchema } from './record-codec.js';
export * from './record-codecs.js';
export { assertEncodedSize, encodedSize, maxPayloadBytes } from './record-size.js';
export { RegistrySerde, type RegistrySerdeOptions } from './registry-serde.js';
export { formatFingerprint, schemaFingerprint } from './schema-fingerprint.js';
export {
  logbookSubjectStrategy,
  topicNameStrategy,
  topicRecordNameStrategy,
  type SchemaRegistryClient,
  type SubjectNameStrategy,
} from './schema-registry-client.js';
export { SchemaRegistryError } from './schema-registry-error.js';
export { topicValueSerde, type Serde, type TopicValueSerde } from './serde.js';
export { SingleObjectSerde } from './single-object-serde.js';
export {
  confluentHeaderLength,
  detectWireFormat,
  frameConfluent,
  frameSingleObject,
  readConfluent,
  readSingleObject,
  singleObjectHeaderLength,
  WireFormat,
} from './wire-format.js';
