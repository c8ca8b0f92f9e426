/**
 * Payloads and data conversion: how user values become opaque `logbook.Payload` records.
 * @module
 */
export { BinaryPayloadConverter } from './binary-payload-converter.js';
export { CodecDataConverter } from './codec-data-converter.js';
export { CompositeDataConverter, defaultDataConverter } from './composite-data-converter.js';
export type { DataConverter, EncodingPayloadConverter } from './data-converter.js';
export { JsonPayloadConverter } from './json-payload-converter.js';
export {
  encodingMetadataKey,
  makePayload,
  PayloadEncoding,
  payloadEncodingOf,
  type Payload,
} from './payload.js';
export type { PayloadCodec } from './payload-codec.js';
export { PayloadEncodingError, PayloadEncodingErrorCode } from './payload-encoding-error.js';
export { UndefinedPayloadConverter } from './undefined-payload-converter.js';
export { EncryptedPayload, isEncryptedPayload } from './encrypted-payload.js';
export { isPayload, mapPayloads, payloadsIn } from './payload-map.js';
export {
  ENVELOPE_KEY,
  fromJsonPayload,
  isPayloadEnvelope,
  PayloadEnvelopeConverter,
  toJsonPayload,
  toPayloadEnvelope,
  type JsonPayload,
} from './payload-envelope.js';
export { isSubjectMarked, SUBJECT_MARK, withSubject, type SubjectMarked } from './subject-marker.js';
export { payloadSubjectOf, withPayloadSubject } from './payload-subject.js';
