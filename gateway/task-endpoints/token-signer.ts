/**
 * Signs the HTTP task endpoints' tokens with a key only the gateways hold (HMAC-SHA256), so a
 * token a worker edits or forges — another run, another attempt, another tenant's queue — is
 * refused (403) instead of completing somebody else's task. Gateways of one deployment share the
 * key (`--task-token-key`), so any of them takes a token another issued.
 * @module
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../http-errors.js';

/** The shortest key taken: 256 bits, as HMAC-SHA256 wants. */
export const MIN_KEY_BYTES = 32;

/** Signs and checks tokens with one key. */
export class TokenSigner {
  private readonly key: Buffer;

  /**
   * @param key the deployment's key (default: a random one, good for a single gateway)
   * @throws RangeError for a key shorter than {@link MIN_KEY_BYTES}
   */
  constructor(key: Buffer = randomBytes(MIN_KEY_BYTES)) {
    if (key.length < MIN_KEY_BYTES) throw new RangeError(`a task token key must be at least ${MIN_KEY_BYTES} bytes, got ${key.length}`);
    this.key = Buffer.from(key);
  }

  /** `<payload>.<signature>`, both base64url. */
  sign(payload: string): string {
    return `${payload}.${this.mac(payload)}`;
  }

  /**
   * The payload of a token this key signed.
   * @throws HttpError 400 for something that is not a token at all; 403 for a signature that does not match
   */
  verify(token: unknown): string {
    if (typeof token !== 'string' || token.length === 0) throw new HttpError(400, 'INVALID_TASK_TOKEN', `'taskToken' must be a non-empty string`);
    const dot = token.lastIndexOf('.');
    if (dot <= 0) throw new HttpError(400, 'INVALID_TASK_TOKEN', `'taskToken' is not a token issued by a gateway (no signature)`);
    const payload = token.slice(0, dot);
    // Compared as text: decoding would ignore the spare bits of the last base64 character, so a
    // signature edited there would still pass.
    const given = Buffer.from(token.slice(dot + 1), 'utf8');
    const expected = Buffer.from(this.mac(payload), 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new HttpError(403, 'INVALID_TASK_TOKEN', `'taskToken' does not carry this deployment's signature: it was edited, forged, or issued by a gateway with another --task-token-key`);
    }
    return payload;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}

/** A key given as hex (64 hex digits or more) or base64. */
export function taskTokenKeyOf(text: string): Buffer {
  const key = /^[0-9a-f]+$/i.test(text) && text.length % 2 === 0 ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length < MIN_KEY_BYTES) throw new RangeError(`--task-token-key (LOGBOOK_TASK_TOKEN_KEY) must hold at least ${MIN_KEY_BYTES} bytes (64 hex digits), got ${key.length}`);
  return key;
}
