/**
 * The codec endpoint (Temporal's codec-server shape): `POST /codec/encode` and `/codec/decode`
 * take and return `{ payloads: [{ metadata: {k: base64}, data: base64 }] }`. An operator runs it
 * beside the key store with a bearer token of its own, so the UI and the CLI show decoded payloads
 * while the engine never holds a key. Built on node:http (express stays the gateway's).
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { CodecDataConverter, fromJsonPayload, toJsonPayload, type Payload, type PayloadCodec } from '../../topics/payload/index.js';

/** Largest request body taken, bytes. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Codes of payloads the codec cannot decode, answered 422: the caller's answer about its payload,
 * named by the codec's error class (the CLI and the UI look for `KeyErased`).
 */
const PAYLOAD_ERRORS: ReadonlySet<string> = new Set(['KeyErased', 'PayloadTampered']);

/** Options of {@link createCodecServer}. */
export interface CodecServerOptions {
  readonly codecs: readonly PayloadCodec[];
  /** The bearer token every call must carry. Its holder decodes every subject the key store holds. */
  readonly token: string;
  /** The browser origin allowed to call (the UI's, e.g. `http://localhost:8233`); none by default. */
  readonly allowOrigin?: string;
  /** Where the detail of a failure the caller is not told is written; stderr by default. */
  readonly log?: (line: string) => void;
}

/** A refusal with its HTTP status. */
class Refusal extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

/**
 * The codec endpoint as an unstarted server: call `listen` on it.
 *
 * Answers: 200 `{ payloads }`; 422 `KeyErased` / `PayloadTampered` for a payload that can never be
 * decoded; 503 `KeyNotFound` when the key store lacks a payload's key (the server's configuration,
 * e.g. a wrong key directory: retry once fixed); 401 `UNAUTHENTICATED`, 403 `PERMISSION_DENIED`,
 * 400 `INVALID_ARGUMENT`, 404 `NOT_FOUND`, 413 `PAYLOAD_TOO_LARGE` for the call itself; 500
 * `INTERNAL` for anything else, with a generic message — its detail (which may name key files)
 * goes to `log`, never to the caller.
 * @throws TypeError when the token is empty
 * @example
 * createCodecServer({ codecs: [new EncryptionCodec({ keys })], token, allowOrigin: 'http://localhost:8233' }).listen(8888);
 */
export function createCodecServer(options: CodecServerOptions): Server {
  if (!options.token) throw new TypeError('the codec server needs a bearer token');
  const chain = new CodecDataConverter({ codecs: options.codecs });
  return createServer((req, res) => {
    cors(req, res, options.allowOrigin);
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    handle(req, chain, options.token)
      .then((body) => send(res, 200, body))
      .catch((error: unknown) => {
        const { status, code, message } = answerTo(error, options.log ?? ((line) => process.stderr.write(`${line}\n`)));
        send(res, status, { code, message });
      });
  });
}

/** The status and body a failed call gets; what the caller is not told is logged. */
function answerTo(error: unknown, log: (line: string) => void): { status: number; code: string; message: string } {
  if (error instanceof Refusal) return { status: error.status, code: error.code, message: error.message };
  const e = error as { name?: unknown; message?: unknown; subject?: unknown; keyId?: unknown } | null;
  // A payload that cannot be decoded is the caller's answer, not a server fault; its message names only the subject and key id.
  if (typeof e?.name === 'string' && PAYLOAD_ERRORS.has(e.name)) return { status: 422, code: e.name, message: String(e.message) };
  log(`codec server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  if (e?.name === 'KeyNotFound') {
    // The store's location is the operator's to read in the log, not the caller's.
    return { status: 503, code: 'KeyNotFound', message: `key ${String(e.keyId)} of data subject '${String(e.subject)}' is not in this codec server's key store (it was not erased): the server's operator must give it the key store the payload was written with` };
  }
  return { status: 500, code: 'INTERNAL', message: 'the codec server failed; its log has the detail' };
}

async function handle(req: IncomingMessage, chain: CodecDataConverter, token: string): Promise<unknown> {
  const route = req.url?.split('?')[0];
  if (req.method !== 'POST' || (route !== '/codec/encode' && route !== '/codec/decode')) throw new Refusal(404, 'NOT_FOUND', 'POST /codec/encode or /codec/decode');
  authorise(req.headers.authorization, token);
  const payloads = payloadsOf(await jsonBody(req));
  const coded = route === '/codec/encode' ? await chain.encode(payloads) : await chain.decode(payloads);
  return { payloads: coded.map(toJsonPayload) };
}

/** 401 without a bearer token, 403 with another one. */
function authorise(header: string | undefined, token: string): void {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
  if (given === undefined) throw new Refusal(401, 'UNAUTHENTICATED', 'an Authorization: Bearer <token> header is required');
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new Refusal(403, 'PERMISSION_DENIED', 'the bearer token is not this codec server\'s');
}

function payloadsOf(body: unknown): Payload[] {
  const list = (body as { payloads?: unknown } | null)?.payloads;
  if (!Array.isArray(list)) throw new Refusal(400, 'INVALID_ARGUMENT', "'payloads' must be an array of {metadata, data}");
  return list.map((p, i) => {
    try {
      return fromJsonPayload(p, `payloads[${i}]`);
    } catch (error) {
      throw new Refusal(400, 'INVALID_ARGUMENT', (error as Error).message);
    }
  });
}

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Refusal(413, 'PAYLOAD_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Refusal(400, 'INVALID_ARGUMENT', 'the body must be JSON {payloads: [...]}');
  }
}

function cors(req: IncomingMessage, res: ServerResponse, allowOrigin: string | undefined): void {
  if (!allowOrigin || req.headers.origin !== allowOrigin) return;
  res.setHeader('access-control-allow-origin', allowOrigin);
  res.setHeader('vary', 'origin');
  res.setHeader('access-control-allow-methods', 'POST, OPTIONS');
  // Temporal UI sends its namespace header alongside the token.
  res.setHeader('access-control-allow-headers', 'authorization, content-type, x-namespace');
  res.setHeader('access-control-allow-credentials', 'true');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
