import type { Type } from 'avsc';
import { DecodeError, DecodeErrorCode } from './decode-error.js';

// avsc types are only partly typed; this is the subset the walk reads.
interface TypeShape {
  typeName: string;
  fields?: readonly { type: Type }[];
  itemsType?: Type;
  valuesType?: Type;
  types?: readonly Type[];
  symbols?: readonly string[];
  size?: number;
  underlyingType?: Type;
}

/**
 * Walks Avro bytes against their writer type without building values, checking every length,
 * count, union index and enum index against the bytes that remain, and that nothing trails.
 *
 * Why: avsc reads past the end of a buffer without stopping and only reports it afterwards, so a
 * corrupt or hostile record claiming an array of 2^40 items makes it allocate until the process
 * dies. The command topic is written by outside producers; one such record must be
 * dead-lettered, not crash the shard (DESIGN.md §1).
 *
 * @throws DecodeError `DECODE_TRUNCATED` or `DECODE_INVALID_BODY`
 */
export function checkAvroBounds(writer: Type, body: Uint8Array): void {
  const cursor = { pos: 0 };
  walk(writer as unknown as TypeShape, body, cursor);
  if (cursor.pos !== body.length) {
    throw new DecodeError(DecodeErrorCode.InvalidBody, `${body.length - cursor.pos} trailing bytes after the record`);
  }
}

function walk(type: TypeShape, buf: Uint8Array, c: { pos: number }): void {
  switch (type.typeName) {
    case 'null':
      return;
    case 'boolean':
      return advance(buf, c, 1);
    case 'int':
    case 'long':
      readVarint(buf, c);
      return;
    case 'float':
      return advance(buf, c, 4);
    case 'double':
      return advance(buf, c, 8);
    case 'bytes':
    case 'string':
      return advance(buf, c, readLength(buf, c));
    case 'fixed':
      return advance(buf, c, type.size ?? 0);
    case 'enum':
      return checkIndex(readVarint(buf, c), type.symbols?.length ?? 0, 'enum symbol');
    case 'record':
    case 'error':
      for (const f of type.fields ?? []) walk(f.type as unknown as TypeShape, buf, c);
      return;
    case 'array': {
      const items = type.itemsType as unknown as TypeShape;
      return walkBlocks(buf, c, minSize(items), (b, cc) => walk(items, b, cc));
    }
    case 'map':
      // A map entry's key takes at least its length byte.
      return walkBlocks(buf, c, 1, (b, cc) => {
        advance(b, cc, readLength(b, cc));
        walk(type.valuesType as unknown as TypeShape, b, cc);
      });
    case 'union:wrapped':
    case 'union:unwrapped': {
      const branches = type.types ?? [];
      const index = readVarint(buf, c);
      checkIndex(index, branches.length, 'union branch');
      return walk(branches[index] as unknown as TypeShape, buf, c);
    }
    default:
      if (type.underlyingType !== undefined) return walk(type.underlyingType as unknown as TypeShape, buf, c);
      throw new Error(`bounds check does not know Avro type ${type.typeName}`);
  }
}

/** Items of zero encoded size (null, empty records) get this cap instead of a byte budget. */
const maxZeroSizeItems = 1_000_000;

// Arrays and maps are sequences of blocks: a count (negative: followed by a byte size), items.
function walkBlocks(
  buf: Uint8Array,
  c: { pos: number },
  itemMinSize: number,
  item: (b: Uint8Array, c: { pos: number }) => void,
): void {
  for (;;) {
    let count = readVarint(buf, c);
    if (count === 0) return;
    if (count < 0) {
      count = -count;
      readVarint(buf, c);
    }
    // Reject an impossible count before looping over it.
    const limit = itemMinSize > 0 ? Math.floor((buf.length - c.pos) / itemMinSize) : maxZeroSizeItems;
    if (count > limit) {
      throw new DecodeError(DecodeErrorCode.InvalidBody, `block of ${count} items in ${buf.length - c.pos} bytes`);
    }
    for (let i = 0; i < count; i++) item(buf, c);
  }
}

// Fewest bytes a value of the type can take (0 for null and records of such fields). A record met
// again while being measured counts 0: still a lower bound, and it cannot recurse forever.
function minSize(type: TypeShape, visiting = new Set<TypeShape>()): number {
  switch (type.typeName) {
    case 'null':
      return 0;
    case 'float':
      return 4;
    case 'double':
      return 8;
    case 'fixed':
      return type.size ?? 0;
    case 'record':
    case 'error': {
      if (visiting.has(type)) return 0;
      visiting.add(type);
      const size = (type.fields ?? []).reduce((sum, f) => sum + minSize(f.type as unknown as TypeShape, visiting), 0);
      visiting.delete(type);
      return size;
    }
    default:
      return type.underlyingType !== undefined ? minSize(type.underlyingType as unknown as TypeShape, visiting) : 1;
  }
}

function readLength(buf: Uint8Array, c: { pos: number }): number {
  const length = readVarint(buf, c);
  if (length < 0) throw new DecodeError(DecodeErrorCode.InvalidBody, `negative length ${length}`);
  return length;
}

function advance(buf: Uint8Array, c: { pos: number }, n: number): void {
  if (c.pos + n > buf.length) {
    throw new DecodeError(DecodeErrorCode.Truncated, `needs ${n} bytes at offset ${c.pos}, ${buf.length - c.pos} left`);
  }
  c.pos += n;
}

function checkIndex(index: number, size: number, what: string): void {
  if (index < 0 || index >= size) throw new DecodeError(DecodeErrorCode.InvalidBody, `${what} index ${index} of ${size}`);
}

// Zig-zag varint as a double: exact up to 2^53, which is all a length or count can sensibly be.
function readVarint(buf: Uint8Array, c: { pos: number }): number {
  let result = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (c.pos >= buf.length) throw new DecodeError(DecodeErrorCode.Truncated, `varint runs past the end at ${c.pos}`);
    const byte = buf[c.pos++] as number;
    result += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return result % 2 === 0 ? result / 2 : -(result + 1) / 2;
    scale *= 128;
  }
  throw new DecodeError(DecodeErrorCode.InvalidBody, `varint longer than 10 bytes at ${c.pos}`);
}
