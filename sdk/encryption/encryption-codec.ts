import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { EncryptedPayload, isEncryptedPayload, payloadSubjectOf, type Payload, type PayloadCodec } from '../../topics/payload/index.js';
import { encodePayloadRecord, decodePayloadRecord } from './payload-record.js';
import { PayloadTampered, type KeyStore } from './key-store.js';

/** The subject of payloads nobody marked and that inherited none. */
export const DEFAULT_SUBJECT = 'logbook-default';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Options of an {@link EncryptionCodec}. */
export interface EncryptionCodecOptions {
  /** Where the subjects' keys are. */
  readonly keys: KeyStore;
  /** The subject of payloads that name none; default {@link DEFAULT_SUBJECT}. Erasing it shreds every such payload. */
  readonly defaultSubject?: string;
}

/**
 * A payload codec encrypting each payload with AES-256-GCM under its data subject's key. The whole
 * inner payload (its metadata and data) is encrypted; the outer payload says `binary/encrypted`
 * and names the key id and the subject in clear (the engine reads them, never the data). Subject
 * and key id are bound as associated data, so a ciphertext relabelled to another subject or key
 * does not decrypt. Data bytes: 12-byte IV, ciphertext, 16-byte tag.
 *
 * The subject is the payload's `logbook-subject` metadata (set by `withSubject`, or stamped by the
 * worker from the run or activity input), else the default subject.
 *
 * @example
 * const codec = new EncryptionCodec({ keys: new FileKeyStore({ directory: './dev-keys' }) });
 * const worker = await Worker.create({ taskQueue: 'crm', workflowsPath, activities, dataConverter: { payloadCodecs: [codec] } });
 */
export class EncryptionCodec implements PayloadCodec {
  private readonly keys: KeyStore;
  private readonly defaultSubject: string;

  constructor(options: EncryptionCodecOptions) {
    this.keys = options.keys;
    this.defaultSubject = options.defaultSubject ?? DEFAULT_SUBJECT;
  }

  /** Encrypts each payload not already encrypted (encoding twice would only nest the same data). */
  async encode(payloads: readonly Payload[]): Promise<Payload[]> {
    return Promise.all(payloads.map((p) => (isEncryptedPayload(p) ? p : this.encrypt(p))));
  }

  /**
   * Decrypts each encrypted payload; others pass as they are.
   * @throws KeyErased when the payload's subject was erased
   * @throws PayloadTampered when its data or its subject/key metadata was changed
   */
  async decode(payloads: readonly Payload[]): Promise<Payload[]> {
    return Promise.all(payloads.map((p) => (isEncryptedPayload(p) ? this.decrypt(p) : p)));
  }

  /** Deletes the subject's key: every payload of the subject is unreadable from then on. */
  eraseSubject(subject: string): Promise<void> {
    return this.keys.eraseSubject(subject);
  }

  private async encrypt(payload: Payload): Promise<Payload> {
    const subject = payloadSubjectOf(payload) ?? this.defaultSubject;
    const key = await this.keys.keyFor(subject);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key.material, iv);
    cipher.setAAD(associatedData(subject, key.id));
    const sealed = Buffer.concat([cipher.update(encodePayloadRecord(payload)), cipher.final()]);
    return {
      metadata: {
        encoding: Buffer.from(EncryptedPayload.encoding),
        [EncryptedPayload.keyIdKey]: Buffer.from(key.id),
        [EncryptedPayload.subjectKey]: Buffer.from(subject),
      },
      data: Buffer.concat([iv, sealed, cipher.getAuthTag()]),
    };
  }

  private async decrypt(payload: Payload): Promise<Payload> {
    const subject = payloadSubjectOf(payload);
    const keyId = payload.metadata[EncryptedPayload.keyIdKey]?.toString('utf8');
    if (subject === undefined || keyId === undefined) throw new PayloadTampered(subject ?? '(none)', keyId ?? '(none)');
    const key = await this.keys.existingKey(subject, keyId);
    const { data } = payload;
    if (data.length < IV_BYTES + TAG_BYTES) throw new PayloadTampered(subject, keyId);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.material, data.subarray(0, IV_BYTES));
      decipher.setAAD(associatedData(subject, keyId));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      return decodePayloadRecord(Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]));
    } catch (error) {
      throw new PayloadTampered(subject, keyId, { cause: error });
    }
  }
}

/** Subject and key id, length-prefixed so no two pairs give the same bytes. */
function associatedData(subject: string, keyId: string): Buffer {
  const s = Buffer.from(subject, 'utf8');
  const k = Buffer.from(keyId, 'utf8');
  const lengths = Buffer.alloc(8);
  lengths.writeUInt32BE(s.length, 0);
  lengths.writeUInt32BE(k.length, 4);
  return Buffer.concat([lengths, s, k]);
}
