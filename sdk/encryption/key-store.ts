/**
 * Where an encrypting codec gets its keys: one 256-bit key per data subject. This interface is the
 * seam for a KMS — implement it over your KMS (each subject's data key wrapped by a master key,
 * `eraseSubject` destroying the wrapped key) and pass it to `EncryptionCodec`; `FileKeyStore` is
 * the development implementation.
 * @module
 */

/** A subject's key as the codec uses it. */
export interface SubjectKey {
  /** Names this key in the payload metadata (`encryption-key-id`); not secret. */
  readonly id: string;
  /** 32 bytes for AES-256-GCM. */
  readonly material: Buffer;
}

/**
 * Keys per data subject. Every method is async, so an implementation may call a KMS.
 *
 * @example
 * const store: KeyStore = new FileKeyStore({ directory: '/var/lib/logbook-keys' });
 * const key = await store.keyFor('customer-42');
 */
export interface KeyStore {
  /**
   * The subject's key, created (random, 256 bits) when it has none yet. An erased subject never
   * gets a new key: payloads written after the erasure would otherwise look like the old data came back.
   * @throws KeyErased when the subject was erased
   */
  keyFor(subject: string): Promise<SubjectKey>;
  /**
   * The key `keyId` of the subject, to decrypt. "Erased" must be a recorded fact (a tombstone, a
   * KMS's destroyed state), never inferred from a key that is simply not there.
   * @throws KeyErased when the subject was erased
   * @throws KeyNotFound when the store has no such key and no record of erasing the subject
   */
  existingKey(subject: string, keyId: string): Promise<SubjectKey>;
  /** Deletes the subject's key for good (crypto-shredding) and records that it did: every payload encrypted under it is unreadable from then on. */
  eraseSubject(subject: string): Promise<void>;
}

/**
 * The key a payload was encrypted under was erased (`eraseSubject`): the payload can never be read
 * again. Remedy: none — the data is gone by design; a workflow that needs it cannot be replayed.
 */
export class KeyErased extends Error {
  /** Stable code, as the engine's errors carry. */
  readonly code = 'KEY_ERASED';
  /** Never: the key does not come back. */
  readonly retriable = false;

  constructor(readonly subject: string) {
    super(`the key of data subject '${subject}' was erased: its payloads can no longer be decrypted`);
    this.name = 'KeyErased';
  }
}

/**
 * The key a payload names is not in the key store, and the store has no record of erasing its
 * subject: a configuration problem (a wrong or unmounted key directory, a new host without the
 * keys, another KMS), not an erasure. Remedy: give the process the store that holds the key, then
 * retry — the payload is intact. Never a reason to create a new key for the subject: its old
 * payloads would stay unreadable under the key that is missing.
 */
export class KeyNotFound extends Error {
  /** Stable code. */
  readonly code = 'KEY_NOT_FOUND';
  /** Yes: the same payload decodes once the key store is the right one. */
  readonly retriable = true;

  /** @param where the store looked in, for the operator (e.g. `key directory /var/lib/keys`) */
  constructor(readonly subject: string, readonly keyId: string, readonly where: string) {
    super(`key ${keyId} of data subject '${subject}' is not in ${where}, and the subject was not erased there: is this the key store the payload was written with?`);
    this.name = 'KeyNotFound';
  }
}

/**
 * A payload that does not decrypt: its bytes or its metadata were changed (another subject's
 * ciphertext relabelled, a tampered byte). Remedy: none for the payload; find who changed it.
 */
export class PayloadTampered extends Error {
  /** Stable code. */
  readonly code = 'PAYLOAD_TAMPERED';
  /** Never: the same bytes fail the same way. */
  readonly retriable = false;

  constructor(subject: string, keyId: string, options?: { cause?: unknown }) {
    super(`an encrypted payload of subject '${subject}' (key ${keyId}) fails authentication: its data or its subject/key metadata was altered`, options);
    this.name = 'PayloadTampered';
  }
}
