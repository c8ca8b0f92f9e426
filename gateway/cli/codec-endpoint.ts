/**
 * The CLI's side of a codec endpoint (`logbook codec-server`, or any server in Temporal's
 * codec-server shape): the values it prints are decoded there and the values it sends encoded
 * there, so a person reads and writes encrypted payloads while the CLI holds no key.
 * @module
 */
import { defaultDataConverter, ENVELOPE_KEY, fromJsonPayload, isPayloadEnvelope, toJsonPayload, toPayloadEnvelope, withSubject, type JsonPayload } from '../../topics/payload/index.js';
import { CliError, EXIT, usage } from './errors.js';

/** How the values a command prints and sends cross a codec: through an endpoint, or as they are. */
export interface PayloadCodecView {
  /**
   * `value` with every `{ "$payload": … }` envelope in it replaced by its decoded value; one call
   * for all of them. Search attributes are left alone: they are never encoded.
   * @throws CliError `KeyErased` (exit 8) when a payload's subject was erased; `KeyNotFound`
   *   (exit 5) when the endpoint's key store lacks a payload's key, which is not an erasure
   */
  decode<T>(value: T): Promise<T>;
  /**
   * The values as envelopes of their encoded payloads (one call), each under `subject` when given.
   * @throws CliError (usage) for a subject without an endpoint
   */
  encode(values: readonly unknown[], subject?: string): Promise<unknown[]>;
}

/** Without `--codec-endpoint`: envelopes print as they are and values go as JSON. */
export const plainValues: PayloadCodecView = {
  decode: async (value) => value,
  encode: async (values, subject) => {
    if (subject !== undefined) throw usage('--subject needs --codec-endpoint: the subject is the codec endpoint\'s to encrypt under');
    return [...values];
  },
};

/**
 * A codec endpoint at `endpoint` (its base URL; a trailing `/codec`, as `logbook codec-server`
 * prints it, is taken too), called with `Authorization: Bearer <token>` when a token is given.
 * @throws CliError (usage) for an endpoint that is not an http(s) URL
 */
export function codecEndpoint(endpoint: string, token: string | undefined): PayloadCodecView {
  const base = endpointBase(endpoint);
  const call = (route: 'encode' | 'decode', payloads: JsonPayload[]) => codecCall(base, route, payloads, token);
  return {
    async decode(value) {
      const found: JsonPayload[] = [];
      collect(value, found);
      if (found.length === 0) return value;
      const decoded = (await call('decode', found)).map(valueOf);
      let next = 0;
      return replace(value, () => decoded[next++]) as typeof value;
    },
    async encode(values, subject) {
      if (values.length === 0) return [];
      const payloads = values.map((v) => toJsonPayload(defaultDataConverter.toPayload(subject === undefined ? v : withSubject(subject, v))));
      return (await call('encode', payloads)).map((p) => ({ [ENVELOPE_KEY]: p }));
    },
  };
}

function endpointBase(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw usage(`--codec-endpoint ${JSON.stringify(endpoint)} is not a URL (e.g. http://127.0.0.1:8888)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usage(`--codec-endpoint ${JSON.stringify(endpoint)}: a codec endpoint is reached over http or https`);
  return url.href.replace(/\/+$/, '').replace(/\/codec$/, '');
}

/** One POST to the endpoint; its refusals as CliErrors a person can act on. */
async function codecCall(base: string, route: 'encode' | 'decode', payloads: JsonPayload[], token: string | undefined): Promise<JsonPayload[]> {
  const url = `${base}/codec/${route}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ payloads }),
    });
  } catch (error) {
    const reason = ((error as Error).cause as { code?: string } | undefined)?.code ?? 'no answer';
    throw new CliError(`no codec endpoint answers at ${url} (${reason}); start one with \`logbook codec-server\` or fix --codec-endpoint`, EXIT.UNAVAILABLE);
  }
  const body = (await response.json().catch(() => ({}))) as { payloads?: unknown; code?: string; message?: string };
  if (response.ok && Array.isArray(body.payloads) && body.payloads.length === payloads.length) {
    // Parsed to check the shape, so a wrong answer fails here rather than as a garbled value.
    return body.payloads.map((p, i) => toJsonPayload(fromJsonPayload(p, `the codec endpoint's payloads[${i}]`)));
  }
  throw refusal(url, response.status, body, token !== undefined);
}

function refusal(url: string, status: number, body: { code?: string; message?: string }, sentToken: boolean): CliError {
  const reason = `${body.code ?? `HTTP ${status}`}: ${body.message ?? 'no reason given'}`;
  // The endpoint names an undecodable payload's error (KeyErased, PayloadTampered) as its code.
  if (status === 422 && body.code === 'KeyErased') return new CliError(`KeyErased: ${body.message ?? 'a payload\'s subject key was erased'}`, EXIT.KEY_ERASED);
  if (status === 422) return new CliError(reason, EXIT.FAILED);
  // Not an erasure: the endpoint's key store lacks the key (a wrong key directory). The value is
  // intact and readable once the endpoint is fixed, so this is the endpoint failing (5), not 8.
  if (body.code === 'KeyNotFound') return new CliError(`KeyNotFound: ${body.message ?? 'the codec endpoint\'s key store lacks a payload\'s key'} (the value is not erased; the endpoint at ${url} must be given the right key store)`, EXIT.UNAVAILABLE);
  if (status === 401 || status === 403) {
    const remedy = sentToken && status === 403 ? 'it refused --codec-token' : 'pass --codec-token (LOGBOOK_CODEC_TOKEN)';
    return new CliError(`the codec endpoint ${url} refused the call: ${remedy} (${reason})`, EXIT.UNAUTHENTICATED);
  }
  return new CliError(`the codec endpoint ${url} answered ${status} (${reason})`, status >= 500 || status === 404 ? EXIT.UNAVAILABLE : EXIT.REFUSED);
}

/** The payloads of the envelopes in `value`, in the order {@link replace} walks them. */
function collect(value: unknown, found: JsonPayload[]): void {
  if (isPayloadEnvelope(value)) found.push(value[ENVELOPE_KEY] as JsonPayload);
  else if (Array.isArray(value)) for (const v of value) collect(v, found);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (k !== 'searchAttributes') collect(v, found);
}

function replace(value: unknown, next: () => unknown): unknown {
  if (isPayloadEnvelope(value)) return next();
  if (Array.isArray(value)) return value.map((v) => replace(v, next));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'searchAttributes' ? v : replace(v, next)]));
}

/** A decoded payload as its value; one the CLI's converter cannot read (the endpoint left it encoded) stays an envelope. */
function valueOf(payload: JsonPayload): unknown {
  const decoded = fromJsonPayload(payload);
  try {
    return defaultDataConverter.fromPayload(decoded);
  } catch {
    return toPayloadEnvelope(decoded);
  }
}
