/**
 * Payload encryption for `dataConverter.payloadCodecs`: AES-256-GCM with a key per data subject,
 * crypto-shredding by `eraseSubject`, and the codec endpoint an operator runs for the UI and CLI.
 *
 * @example
 * import { EncryptionCodec, FileKeyStore } from 'logbook/encryption';
 * const codec = new EncryptionCodec({ keys: new FileKeyStore({ directory: './dev-keys' }) });
 * const client = new Client({ connection, dataConverter: { payloadCodecs: [codec] } });
 * @module
 */
export { DEFAULT_SUBJECT, EncryptionCodec, type EncryptionCodecOptions } from './encryption-codec.js';
export { KeyErased, KeyNotFound, PayloadTampered, type KeyStore, type SubjectKey } from './key-store.js';
export { FileKeyStore, KeyFileUnreadable } from './file-key-store.js';
export { withSubject } from '../../topics/payload/subject-marker.js';
export { createCodecServer, type CodecServerOptions } from './codec-server.js';
