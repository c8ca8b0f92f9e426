/**
 * The gateway's JSON body parser: at most 3 MB, and at most {@link MAX_JSON_DEPTH} levels of
 * nested arrays and objects. `JSON.parse` itself copes with any depth, but everything that walks
 * a body afterwards (payload conversion, the raw view of task completions, listings) recurses, and
 * a body of a few kilobytes of `[[[[…` overflowed the stack: a 500. The depth is measured on the
 * raw bytes before parsing, so such a body costs one linear scan and a 400.
 * @module
 */
import express, { type RequestHandler } from 'express';
import { HttpError } from './http-errors.js';

/** Deepest nesting of arrays and objects in a request body. */
export const MAX_JSON_DEPTH = 100;
/** Largest request body (payloads themselves are limited to 2 MiB each). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * The deepest nesting of arrays and objects in JSON text, counted up to `limit + 1` (brackets
 * inside strings do not count). Malformed text is measured as far as it goes; the parser refuses it.
 */
export function jsonNestingDepth(text: Uint8Array, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i]!;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (OPENERS.has(byte)) {
      depth++;
      deepest = Math.max(deepest, depth);
      if (deepest > limit) return deepest;
    } else if (CLOSERS.has(byte)) {
      depth--;
    }
  }
  return deepest;
}

/** express's JSON parser with the size and depth limits of this module. */
export function jsonBody(): RequestHandler {
  return express.json({
    limit: MAX_BODY_BYTES,
    verify: (_req, _res, body) => {
      if (jsonNestingDepth(body) > MAX_JSON_DEPTH) {
        throw new HttpError(400, 'INVALID_JSON', `the request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; at most ${MAX_JSON_DEPTH} are allowed`);
      }
    },
  });
}
