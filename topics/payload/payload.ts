/**
 * A user value as it crosses a topic: opaque bytes plus metadata that says how to read them.
 *
 * Every schema stores user values in this shape (`logbook.Payload`), so encryption or
 * compression can be added by a {@link PayloadCodec} without a schema change. The engine never
 * looks inside `data`; only the SDK's data converter does.
 *
 * @example
 * const p: Payload = { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('42') };
 */
export interface Payload {
  /** Free-form metadata; `encoding` names the converter that wrote `data`. */
  metadata: Record<string, Buffer>;
  /** The encoded value. */
  data: Buffer;
}

/**
 * The `encoding` metadata values the built-in converters write (Temporal's names, so payloads
 * stay recognisable to people who know Temporal).
 */
export const PayloadEncoding = {
  /** `undefined` (a void result): no data. */
  Null: 'binary/null',
  /** A `Uint8Array`, stored as is. */
  Binary: 'binary/plain',
  /** Anything else JSON can represent, as UTF-8 JSON text. */
  Json: 'json/plain',
} as const;

/** One of the built-in {@link PayloadEncoding} values. */
export type PayloadEncoding = (typeof PayloadEncoding)[keyof typeof PayloadEncoding];

/** Metadata key under which the encoding name is stored. */
export const encodingMetadataKey = 'encoding';

/**
 * Builds a payload whose metadata holds only `encoding`.
 *
 * @param encoding the encoding name, e.g. `json/plain`
 * @param data the encoded bytes
 */
export function makePayload(encoding: string, data: Buffer): Payload {
  return { metadata: { [encodingMetadataKey]: Buffer.from(encoding, 'utf8') }, data };
}

/**
 * Reads the `encoding` metadata of a payload.
 *
 * @returns the encoding name, or `undefined` when the payload has none
 */
export function payloadEncodingOf(payload: Payload): string | undefined {
  const raw = payload.metadata[encodingMetadataKey];
  return raw === undefined ? undefined : raw.toString('utf8');
}
