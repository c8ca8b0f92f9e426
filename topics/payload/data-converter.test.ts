import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CodecDataConverter } from './codec-data-converter.js';
import { CompositeDataConverter, defaultDataConverter } from './composite-data-converter.js';
import { JsonPayloadConverter } from './json-payload-converter.js';
import { makePayload, payloadEncodingOf, type Payload } from './payload.js';
import type { PayloadCodec } from './payload-codec.js';
import { PayloadEncodingError, PayloadEncodingErrorCode } from './payload-encoding-error.js';

describe('defaultDataConverter', () => {
  it('writes JSON values as json/plain and reads them back', () => {
    const value = { orderId: 42, items: ['a', 'b'], note: null };
    const payload = defaultDataConverter.toPayload(value);
    assert.equal(payloadEncodingOf(payload), 'json/plain');
    assert.equal(payload.data.toString('utf8'), JSON.stringify(value));
    assert.deepEqual(defaultDataConverter.fromPayload(payload), value);
  });

  it('writes undefined as an empty binary/null payload and reads it back as undefined', () => {
    const payload = defaultDataConverter.toPayload(undefined);
    assert.equal(payloadEncodingOf(payload), 'binary/null');
    assert.equal(payload.data.length, 0);
    assert.equal(defaultDataConverter.fromPayload(payload), undefined);
  });

  it('writes null as JSON, not as binary/null', () => {
    const payload = defaultDataConverter.toPayload(null);
    assert.equal(payloadEncodingOf(payload), 'json/plain');
    assert.equal(defaultDataConverter.fromPayload(payload), null);
  });

  it('stores bytes as binary/plain, copying them so later mutation does not leak in', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const payload = defaultDataConverter.toPayload(bytes);
    bytes[0] = 9;
    assert.equal(payloadEncodingOf(payload), 'binary/plain');
    assert.deepEqual([...defaultDataConverter.fromPayload<Buffer>(payload)], [1, 2, 3]);
  });

  it('rejects an unknown encoding with a stable code naming the encoding', () => {
    const payload = makePayload('binary/encrypted', Buffer.from('x'));
    assert.throws(
      () => defaultDataConverter.fromPayload(payload),
      (err: unknown) =>
        err instanceof PayloadEncodingError &&
        err.code === PayloadEncodingErrorCode.UnknownEncoding &&
        err.retriable === false &&
        err.message.includes('binary/encrypted'),
    );
  });

  it('rejects a payload without encoding metadata', () => {
    const payload: Payload = { metadata: {}, data: Buffer.from('1') };
    assert.throws(
      () => defaultDataConverter.fromPayload(payload),
      { code: PayloadEncodingErrorCode.MissingEncoding },
    );
  });

  it('rejects malformed JSON data with PAYLOAD_INVALID_DATA', () => {
    const payload = makePayload('json/plain', Buffer.from('{nope'));
    assert.throws(() => defaultDataConverter.fromPayload(payload), {
      code: PayloadEncodingErrorCode.InvalidData,
    });
  });

  it('refuses values JSON would silently drop or cannot represent', () => {
    for (const value of [() => 1, Symbol('s'), 10n]) {
      assert.throws(() => defaultDataConverter.toPayload(value), {
        code: PayloadEncodingErrorCode.UnserializableValue,
      });
    }
  });
});

describe('CompositeDataConverter', () => {
  it('refuses two converters with the same encoding', () => {
    assert.throws(() => new CompositeDataConverter([new JsonPayloadConverter(), new JsonPayloadConverter()]));
  });
});

describe('CodecDataConverter', () => {
  // A codec that tags the metadata and reverses the bytes, so order of application is visible.
  function tagging(tag: string, log: string[]): PayloadCodec {
    return {
      async encode(ps) {
        log.push(`encode:${tag}`);
        return ps.map((p) => ({
          metadata: { ...p.metadata, [tag]: Buffer.from('1') },
          data: Buffer.from([...p.data].reverse()),
        }));
      },
      async decode(ps) {
        log.push(`decode:${tag}`);
        return ps.map((p) => {
          const { [tag]: _removed, ...metadata } = p.metadata;
          return { metadata, data: Buffer.from([...p.data].reverse()) };
        });
      },
    };
  }

  it('applies codecs first-to-last on encode and last-to-first on decode', async () => {
    const log: string[] = [];
    const dc = new CodecDataConverter({ codecs: [tagging('a', log), tagging('b', log)] });
    const payloads = await dc.toPayloads({ x: 1 }, 'two');
    assert.equal(payloads.length, 2);
    assert.ok(payloads[0]?.metadata['a'] && payloads[0].metadata['b']);
    const values = await dc.fromPayloads(payloads);
    assert.deepEqual(values, [{ x: 1 }, 'two']);
    assert.deepEqual(log, ['encode:a', 'encode:b', 'decode:b', 'decode:a']);
  });

  it('round-trips a single value without codecs', async () => {
    const dc = new CodecDataConverter();
    assert.deepEqual(await dc.fromPayload(await dc.toPayload([1, 2])), [1, 2]);
  });

  it('fails loudly when a codec changes the number of payloads', async () => {
    const dropping: PayloadCodec = { encode: async () => [], decode: async (ps) => [...ps] };
    const dc = new CodecDataConverter({ codecs: [dropping] });
    await assert.rejects(dc.toPayload(1), { code: PayloadEncodingErrorCode.InvalidCodecResult });
  });
});
