import { payloadEncodingOf, type Payload } from './payload.js';

/**
 * The contract between an encrypting payload codec (in the SDK) and the engine, which never
 * decrypts: the `encoding` an encrypted payload carries, and the metadata keys that say which key
 * and which data subject it belongs to. The engine reads only these to enforce codec-required task
 * queues; their values are not secret.
 */
export const EncryptedPayload = {
  /** The `encoding` of a payload an encrypting codec wrote (Temporal's name for it). */
  encoding: 'binary/encrypted',
  /** Metadata key holding the id of the key that encrypted the payload. */
  keyIdKey: 'encryption-key-id',
  /** Metadata key holding the data subject the payload belongs to (bound as associated data). */
  subjectKey: 'logbook-subject',
} as const;

/** Whether a payload was written by an encrypting codec (its `encoding` says so). */
export function isEncryptedPayload(payload: Payload): boolean {
  return payloadEncodingOf(payload) === EncryptedPayload.encoding;
}
