/**
 * Shows encrypted values decoded: the gateway answers a payload it cannot read as
 * `{ "$payload": {metadata, data} }` (it never holds keys); with a codec endpoint set, the UI sends
 * those to the endpoint's `/codec/decode` straight from the browser (Temporal UI's way) and shows
 * the values. A payload the endpoint cannot decode (its subject's key erased) is shown as the
 * endpoint's reason instead.
 * @module
 */
import { codecSettings, type CodecSettings } from './session.js';

interface WirePayload {
  metadata: Record<string, string>;
  data: string;
}

type Envelope = { $payload: WirePayload };

/** `value` with every `$payload` envelope decoded through the codec endpoint (unchanged without one). */
export async function decodeEnvelopes<T>(value: T): Promise<T> {
  const settings = codecSettings();
  if (!settings) return value;
  const found: Envelope[] = [];
  collect(value, found);
  if (found.length === 0) return value;
  const decoded = await decodeAll(settings, found.map((e) => e.$payload));
  const shown = new Map(found.map((envelope, i) => [envelope, decoded[i]]));
  return replaceEnvelopes(value, shown) as T;
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && '$payload' in value;
}

function collect(value: unknown, found: Envelope[]): void {
  if (isEnvelope(value)) found.push(value);
  else if (Array.isArray(value)) value.forEach((v) => collect(v, found));
  else if (typeof value === 'object' && value !== null) Object.values(value).forEach((v) => collect(v, found));
}

function replaceEnvelopes(value: unknown, shown: Map<Envelope, unknown>): unknown {
  if (isEnvelope(value)) return shown.get(value);
  if (Array.isArray(value)) return value.map((v) => replaceEnvelopes(v, shown));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceEnvelopes(v, shown)]));
  return value;
}

/** The values of `payloads`; one the endpoint refuses becomes `[code: message]` (a batch with one is retried payload by payload). */
async function decodeAll(settings: CodecSettings, payloads: WirePayload[]): Promise<unknown[]> {
  const batch = await decodeCall(settings, payloads);
  if (Array.isArray(batch)) return batch.map(valueOf);
  if (payloads.length === 1) return [`[${batch.code}: ${batch.message}]`];
  return Promise.all(payloads.map(async (p) => (await decodeAll(settings, [p]))[0]));
}

async function decodeCall(settings: CodecSettings, payloads: WirePayload[]): Promise<WirePayload[] | { code: string; message: string }> {
  let response: Response;
  try {
    response = await fetch(`${settings.endpoint}/codec/decode`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${settings.token}` }, body: JSON.stringify({ payloads }) });
  } catch {
    return { code: 'CodecUnreachable', message: `the codec endpoint ${settings.endpoint} did not answer (is it running, and does it allow this page's origin?)` };
  }
  const body = (await response.json().catch(() => ({}))) as { payloads?: WirePayload[]; code?: string; message?: string };
  if (response.ok && Array.isArray(body.payloads)) return body.payloads;
  return { code: body.code ?? `HTTP ${response.status}`, message: body.message ?? response.statusText };
}

/** A decoded payload's value: JSON as itself, nothing as `undefined`, anything else as its envelope. */
function valueOf(payload: WirePayload): unknown {
  const encoding = payload.metadata.encoding ? atob(payload.metadata.encoding) : '';
  if (encoding === 'json/plain') return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload.data), (c) => c.charCodeAt(0))));
  if (encoding === 'binary/null') return undefined;
  return { $payload: payload };
}
