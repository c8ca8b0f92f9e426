import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAvroBounds } from './avro-bounds-check.js';
import { parseAvroType } from './avro-type.js';
import { DecodeError, DecodeErrorCode } from './decode-error.js';
import { EncodeError, EncodeErrorCode } from './encode-error.js';
import { commandCodec, historyEventCodec, shardPositionsCodec } from './record-codecs.js';
import { assertEncodedSize, encodedSize, maxPayloadBytes } from './record-size.js';
import { SingleObjectSerde } from './single-object-serde.js';
import { activityCompletedCommand, timerFiredEvent } from './test-values.js';
import type { RecordCodec } from './record-codec.js';
import { frameConfluent, frameSingleObject } from './wire-format.js';

const serde = new SingleObjectSerde();

function rejectsWith(code: DecodeErrorCode, bytes: Buffer, codec: RecordCodec<unknown> = historyEventCodec): void {
  assert.throws(
    () => serde.decodeSync(codec, bytes),
    (err: unknown) => err instanceof DecodeError && err.code === code && err.retriable === false,
  );
}

// Zig-zag varint, as Avro writes an int or long.
function varint(n: number): number[] {
  let z = n >= 0 ? n * 2 : -n * 2 - 1;
  const out: number[] = [];
  while (z >= 0x80) {
    out.push((z % 0x80) | 0x80);
    z = Math.floor(z / 0x80);
  }
  out.push(z);
  return out;
}

describe('SingleObjectSerde', () => {
  it('writes C3 01, the little-endian fingerprint, then the body', () => {
    const bytes = serde.encodeSync(historyEventCodec, timerFiredEvent);
    assert.deepEqual([...bytes.subarray(0, 2)], [0xc3, 0x01]);
    assert.equal(bytes.readBigUInt64LE(2), historyEventCodec.latest.fingerprint);
    assert.deepEqual(bytes.subarray(10), historyEventCodec.encodeBody(timerFiredEvent));
  });

  it('encodes records larger than its scratch buffer, and the ones after them, each to exactly its own bytes', () => {
    const sizes = [200, 100_000, 1_500_000, 300, 64 * 1024 - 40, 10];
    const encoded = sizes.map((size) => serde.encodeSync(commandCodec, activityCompletedCommand(Buffer.alloc(size, size % 251))));
    encoded.forEach((bytes, i) => {
      assert.deepEqual(serde.decodeSync(commandCodec, bytes), activityCompletedCommand(Buffer.alloc(sizes[i]!, sizes[i]! % 251)));
      assert.equal(bytes.length, frameSingleObject(commandCodec.latest.fingerprint, commandCodec.encodeBody(activityCompletedCommand(Buffer.alloc(sizes[i]!, sizes[i]! % 251)))).length);
    });
  });

  it('round-trips a value through the async interface', async () => {
    const bytes = await serde.encode(historyEventCodec, timerFiredEvent, 'logbook.history');
    assert.deepStrictEqual(await serde.decode(historyEventCodec, bytes), timerFiredEvent);
  });

  it('returns plain objects whose bytes do not share memory with the input', () => {
    const bytes = serde.encodeSync(commandCodec, activityCompletedCommand(Buffer.from('{"ok":true}')));
    const decoded = serde.decodeSync(commandCodec, bytes);
    assert.equal(Object.getPrototypeOf(decoded), Object.prototype);
    bytes.fill(0);
    assert.ok(decoded.body.type === 'ActivityTaskCompleted');
    assert.equal(decoded.body.result?.data.toString(), '{"ok":true}');
  });

  it('rejects bytes in neither framing, including empty ones', () => {
    rejectsWith(DecodeErrorCode.UnknownFormat, Buffer.from('{"json":true}'));
    rejectsWith(DecodeErrorCode.UnknownFormat, Buffer.alloc(0));
  });

  it('rejects a header cut short', () => {
    rejectsWith(DecodeErrorCode.Truncated, Buffer.from([0xc3, 0x01, 0x00]));
  });

  it('rejects a body cut short', () => {
    const bytes = serde.encodeSync(historyEventCodec, timerFiredEvent);
    rejectsWith(DecodeErrorCode.Truncated, bytes.subarray(0, bytes.length - 1));
  });

  it('rejects trailing bytes after the record', () => {
    rejectsWith(DecodeErrorCode.InvalidBody, Buffer.concat([serde.encodeSync(historyEventCodec, timerFiredEvent), Buffer.from([0])]));
  });

  it('rejects an unknown fingerprint, naming it', () => {
    const bytes = frameSingleObject(0x0123456789abcdefn, historyEventCodec.encodeBody(timerFiredEvent));
    assert.throws(() => serde.decodeSync(historyEventCodec, bytes), /0123456789abcdef/);
    rejectsWith(DecodeErrorCode.UnknownFingerprint, bytes);
  });

  it('rejects a record of another kind as an unknown fingerprint', () => {
    const positions = serde.encodeSync(shardPositionsCodec, { positions: [] });
    rejectsWith(DecodeErrorCode.UnknownFingerprint, positions);
  });

  it('asks for a registry when it meets the Confluent framing', () => {
    rejectsWith(DecodeErrorCode.RegistryRequired, frameConfluent(7, Buffer.from([0])));
  });

  it('rejects an out-of-range union index', () => {
    // requestId "a", namespace "b", workflowId "c", runId null, replyTo null, body branch 99.
    const body = Buffer.from([2, 0x61, 2, 0x62, 2, 0x63, 0, 0, ...varint(99)]);
    const bytes = frameSingleObject(commandCodec.latest.fingerprint, body);
    assert.throws(() => serde.decodeSync(commandCodec, bytes), { code: DecodeErrorCode.InvalidBody });
  });

  it('rejects a hostile array length at once instead of allocating it', () => {
    const body = Buffer.from(varint(2 ** 40));
    const bytes = frameSingleObject(shardPositionsCodec.latest.fingerprint, body);
    const started = performance.now();
    assert.throws(() => serde.decodeSync(shardPositionsCodec, bytes), { code: DecodeErrorCode.InvalidBody });
    assert.ok(performance.now() - started < 1000);
  });

  it('rejects a history event whose eventType contradicts its attributes', () => {
    const { type } = historyEventCodec.latest;
    const { attributes, ...envelope } = timerFiredEvent;
    const avroValue = {
      ...envelope,
      eventType: 'ActivityTaskCompleted',
      attributes: { 'logbook.TimerFiredEventAttributes': { timerId: attributes.timerId, startedEventId: 5 } },
    };
    const bytes = frameSingleObject(historyEventCodec.latest.fingerprint, type.toBuffer(avroValue));
    rejectsWith(DecodeErrorCode.InvalidValue, bytes);
  });

  it('writes eventType from the attributes for analysts', () => {
    const decoded = historyEventCodec.latest.type.fromBuffer(historyEventCodec.encodeBody(timerFiredEvent)) as {
      eventType: string;
    };
    assert.equal(decoded.eventType, 'TimerFired');
  });

  it('refuses to encode a value missing a field, naming the path', () => {
    const broken = { ...timerFiredEvent, attributes: { type: 'TimerFired', timerId: '1' } } as never;
    assert.throws(
      () => serde.encodeSync(historyEventCodec, broken),
      (err: unknown) =>
        err instanceof EncodeError &&
        err.code === EncodeErrorCode.InvalidValue &&
        err.paths.some((p) => p.endsWith('startedEventId')),
    );
  });

  it('refuses to encode an unknown union tag', () => {
    const broken = { ...timerFiredEvent, attributes: { type: 'TimerExploded' } } as never;
    assert.throws(() => serde.encodeSync(historyEventCodec, broken), /TimerExploded/);
  });
});

describe('record size', () => {
  it('promises 2 MiB payloads', () => {
    assert.equal(maxPayloadBytes, 2 * 1024 * 1024);
  });

  it('measures the encoded size including the framing header', () => {
    const command = activityCompletedCommand(Buffer.from('"small"'));
    assert.equal(encodedSize(commandCodec, command), serde.encodeSync(commandCodec, command).length);
  });

  it('flags a record over the limit with a clear error', () => {
    const command = activityCompletedCommand(Buffer.alloc(maxPayloadBytes, 0x61));
    const size = encodedSize(commandCodec, command);
    assert.ok(size > maxPayloadBytes, 'the envelope adds to a maximal payload');
    assert.throws(() => assertEncodedSize(size, maxPayloadBytes, 'Command ActivityTaskCompleted'), {
      code: EncodeErrorCode.TooLarge,
    });
    assertEncodedSize(size, maxPayloadBytes + 1024);
  });
});

describe('bounds check', () => {
  it('accepts arrays of zero-size items up to a cap and rejects absurd counts of them', () => {
    const type = parseAvroType({ type: 'array', items: 'null' });
    checkAvroBounds(type, type.toBuffer(new Array(1000).fill(null)));
    assert.throws(() => checkAvroBounds(type, Buffer.from([...varint(2 ** 30), 0])), {
      code: DecodeErrorCode.InvalidBody,
    });
  });
});
