import { defaultDataConverter, type DataConverter, type PayloadCodec } from '../../topics/payload/index.js';

/**
 * Temporal's `dataConverter` option: a payload converter and the payload codecs applied after it
 * (`payloadCodecs: [encryptionCodec]`). Codecs run where payloads cross the process boundary —
 * the client, and the worker around workflow and activity code — never inside workflow code,
 * which stays synchronous and deterministic.
 */
export interface DataConverterOptions {
  /** Turns values into payloads and back; default JSON (Logbook takes the converter itself, not Temporal's module path). */
  readonly payloadConverter?: DataConverter;
  /** Applied first to last on the way out, last to first on the way in. */
  readonly payloadCodecs?: readonly PayloadCodec[];
}

/** What a `dataConverter` option may be: {@link DataConverterOptions}, or a converter alone (as before codecs). */
export type DataConverterOption = DataConverter | DataConverterOptions;

/** A `dataConverter` option resolved: the converter and the codecs (none when not given). */
export interface LoadedDataConverter {
  readonly converter: DataConverter;
  readonly codecs: readonly PayloadCodec[];
}

/**
 * Resolves a `dataConverter` option; `fallback` is what applies when it is absent (a connection's).
 * @throws TypeError when `payloadCodecs` holds something that is not a codec
 */
export function loadDataConverter(option: DataConverterOption | undefined, fallback: LoadedDataConverter = { converter: defaultDataConverter, codecs: [] }): LoadedDataConverter {
  if (option === undefined) return fallback;
  if (typeof (option as DataConverter).toPayload === 'function') return { converter: option as DataConverter, codecs: [] };
  const { payloadConverter, payloadCodecs } = option as DataConverterOptions;
  const codecs = [...(payloadCodecs ?? [])];
  codecs.forEach((codec, i) => {
    if (typeof codec?.encode !== 'function' || typeof codec.decode !== 'function') throw new TypeError(`dataConverter.payloadCodecs[${i}] is not a payload codec (it needs encode and decode)`);
  });
  return { converter: payloadConverter ?? defaultDataConverter, codecs };
}
