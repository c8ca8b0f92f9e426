import type { Type } from 'avsc';
import { unionBranchSuffixes, unionBranchTag } from '../schemas/union-branch-naming.js';
import { EncodeError, EncodeErrorCode } from './encode-error.js';

type Convert = (value: unknown) => unknown;
type Plain = Record<string, unknown>;

/** The conversion of values that are the same on both sides (primitives, enums). */
const same: Convert = (v) => v;

/**
 * Fixes up one record kind on its way to or from Avro, for a field that exists only on one side
 * (e.g. HistoryEvent's `eventType`, derived from `attributes.type`).
 */
export interface RecordHook {
  /**
   * Runs once the TypeScript value's declared fields were copied and converted into `converted`
   * (a fresh object the hook may change in place); `value` is the TypeScript value.
   */
  toAvro(value: Plain, converted: Plain): Plain;
  /** Runs on the converted value after decoding; may throw to reject an inconsistent record. */
  fromAvro(value: Plain): Plain;
}

// avsc types are only partly typed; this is the subset the converter reads.
interface TypeShape {
  typeName: string;
  name?: string;
  branchName?: string;
  fields?: readonly { name: string; type: Type }[];
  itemsType?: Type;
  valuesType?: Type;
  types?: readonly Type[];
  underlyingType?: Type;
}

/**
 * Converts between the TypeScript form of values and avsc's form, driven by the avsc type:
 * - a union of records (avsc "wrapped": `{ "logbook.TimerFiredEventAttributes": {…} }`) becomes
 *   a discriminated union (`{ type: 'TimerFired', … }`, tag per `unionBranchTag`);
 * - decoded records become plain objects (avsc builds class instances) and decoded bytes are
 *   copied (avsc returns views into the input, which would pin whole fetch buffers in memory).
 *
 * Conversions are compiled once per type and cached.
 */
export class TaggedUnionConverter {
  readonly #hooks: ReadonlyMap<string, RecordHook>;
  readonly #toAvro = new Map<Type, Convert>();
  readonly #fromAvro = new Map<Type, Convert>();

  /** @param hooks record full name → hook */
  constructor(hooks: ReadonlyMap<string, RecordHook> = new Map()) {
    this.#hooks = hooks;
  }

  /**
   * TypeScript form → avsc form, ready for `type.toBuffer`.
   * @throws EncodeError for a union value whose `type` names no branch
   */
  toAvro(type: Type, value: unknown): unknown {
    return this.#compile(type, 'to')(value);
  }

  /** avsc form (as decoded) → TypeScript form. May throw a hook's error. */
  fromAvro(type: Type, value: unknown): unknown {
    return this.#compile(type, 'from')(value);
  }

  #compile(type: Type, dir: 'to' | 'from'): Convert {
    const cache = dir === 'to' ? this.#toAvro : this.#fromAvro;
    const cached = cache.get(type);
    if (cached !== undefined) return cached;
    // Recursive types (Failure.cause) meet themselves while compiling: hand out a forwarder.
    const slot: { convert?: Convert } = {};
    cache.set(type, (v) => (slot.convert as Convert)(v));
    slot.convert = this.#build(type as unknown as TypeShape, dir);
    cache.set(type, slot.convert);
    return slot.convert;
  }

  #build(type: TypeShape, dir: 'to' | 'from'): Convert {
    switch (type.typeName) {
      case 'record':
      case 'error':
        return this.#record(type, dir);
      case 'array': {
        const item = this.#compile(type.itemsType as Type, dir);
        // avsc neither keeps nor changes the arrays it writes, and decodes into fresh ones.
        if (item === same) return same;
        return (v) => (Array.isArray(v) ? v.map(item) : v);
      }
      case 'map': {
        const entry = this.#compile(type.valuesType as Type, dir);
        return (v) => (isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, entry(x)])) : v);
      }
      case 'union:wrapped':
        return this.#taggedUnion(type, dir);
      case 'union:unwrapped':
        return this.#nullableUnion(type, dir);
      case 'bytes':
      case 'fixed':
        return dir === 'from' ? (v) => Buffer.from(v as Buffer) : (v) => (isNonBufferBytes(v) ? Buffer.from(v) : v);
      default:
        if (type.underlyingType !== undefined) return this.#compile(type.underlyingType, dir);
        return same;
    }
  }

  #record(type: TypeShape, dir: 'to' | 'from'): Convert {
    const fields = (type.fields ?? []).map((f) => ({ name: f.name, convert: this.#compile(f.type, dir) }));
    const hook = type.name === undefined ? undefined : this.#hooks.get(type.name);
    const copy = compileCopy(fields);
    if (dir === 'from') return (v) => (hook ? hook.fromAvro(copy(v as Plain)) : copy(v as Plain));
    // Copying only declared fields also drops the `type` tag of union branches.
    if (hook) return (v) => (isObject(v) ? hook.toAvro(v, copy(v)) : v);
    return (v) => (isObject(v) ? copy(v) : v);
  }

  #taggedUnion(type: TypeShape, dir: 'to' | 'from'): Convert {
    const byTag = new Map<string, { branchName: string; convert: Convert }>();
    const byBranch = new Map<string, { tag: string; convert: Convert }>();
    for (const branch of type.types ?? []) {
      const shape = branch as unknown as TypeShape;
      if (shape.typeName === 'null') continue;
      const branchName = shape.branchName ?? '';
      const tag = unionBranchTag(branchName);
      if (shape.typeName !== 'record' || tag === undefined) {
        throw new Error(`union branch ${branchName} is not a record named <Tag>(${unionBranchSuffixes.join('|')})`);
      }
      if ((shape.fields ?? []).some((f) => f.name === 'type')) {
        throw new Error(`union branch ${branchName} has a field named "type", which the tag would hide`);
      }
      const convert = this.#compile(branch, dir);
      byTag.set(tag, { branchName, convert });
      byBranch.set(branchName, { tag, convert });
    }
    if (dir === 'from') {
      return (v) => {
        if (v === null) return null;
        const branchName = Object.keys(v as Plain)[0];
        const branch = branchName === undefined ? undefined : byBranch.get(branchName);
        return branch === undefined ? v : { type: branch.tag, ...(branch.convert((v as Plain)[branchName!]) as Plain) };
      };
    }
    return (v) => {
      if (v === null || !isObject(v)) return v;
      const branch = typeof v['type'] === 'string' ? byTag.get(v['type']) : undefined;
      if (branch === undefined) {
        const known = [...byTag.keys()].join(', ');
        throw new EncodeError(EncodeErrorCode.InvalidValue, `unknown type ${JSON.stringify(v['type'])} (one of ${known})`);
      }
      return { [branch.branchName]: branch.convert(v) };
    };
  }

  // Unwrapped unions in Logbook schemas are always `["null", X]`; refuse others rather than guess.
  #nullableUnion(type: TypeShape, dir: 'to' | 'from'): Convert {
    const nonNull = (type.types ?? []).filter((t) => (t as unknown as TypeShape).typeName !== 'null');
    if (nonNull.length !== 1) throw new Error('only ["null", X] unions may be unwrapped; use a union of records');
    const convert = this.#compile(nonNull[0] as Type, dir);
    if (convert === same) return same;
    return (v) => (v === null ? null : convert(v));
  }
}

/**
 * The copy of a record's declared fields, converting those that need it. Generated once per
 * record type as one object literal: every copy then has the same shape from the start, and a
 * field that needs no conversion costs a property read instead of a call (this runs for every
 * field of every record the engine encodes or decodes). Field names come from Logbook's own
 * schemas and are quoted.
 */
function compileCopy(fields: readonly { name: string; convert: Convert }[]): (src: Plain) => Plain {
  const converters = fields.map((f) => f.convert);
  const properties = fields.map(({ name, convert }, i) => {
    const key = JSON.stringify(name);
    return convert === same ? `${key}: s[${key}]` : `${key}: c[${i}](s[${key}])`;
  });
  return new Function('c', `return (s) => ({ ${properties.join(', ')} });`)(converters) as (src: Plain) => Plain;
}

function isObject(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

function isNonBufferBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array && !Buffer.isBuffer(value);
}
