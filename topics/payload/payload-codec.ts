import type { Payload } from './payload.js';

/**
 * A reversible transformation of payloads applied after the {@link DataConverter} (encrypt,
 * compress, offload to blob storage). Asynchronous because such work usually is; codecs run
 * outside workflow code, so they may do I/O.
 *
 * A codec must keep the payload shape (`metadata` + `data`) and record in `metadata` whatever it
 * needs to decode, so no schema ever changes when a codec is added.
 *
 * @example
 * const encrypting: PayloadCodec = {
 *   async encode(ps) { return ps.map(encryptOne); },
 *   async decode(ps) { return ps.map(decryptOne); },
 * };
 */
export interface PayloadCodec {
  /** Transforms payloads on their way to a topic. Must return one payload per input, in order. */
  encode(payloads: readonly Payload[]): Promise<Payload[]>;
  /** Undoes {@link PayloadCodec.encode}. Must return one payload per input, in order. */
  decode(payloads: readonly Payload[]): Promise<Payload[]>;
}
