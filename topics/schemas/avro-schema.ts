/**
 * The JSON form of Avro schemas as written in `vN.ts` files, plus small builders that keep those
 * files readable. Builders only produce plain JSON; nothing here depends on avsc.
 * @module
 */

/** Any Avro schema: a type name, a union (array) or a complex type object. */
export type AvroSchema = string | readonly AvroSchema[] | AvroComplexSchema;

/** The object forms of an Avro schema. */
export type AvroComplexSchema =
  | AvroRecordSchema
  | AvroEnumSchema
  | AvroArraySchema
  | AvroMapSchema
  | AvroFixedSchema
  | AvroAnnotatedPrimitive;

/** A record. Names in Logbook schemas are always fully qualified (`logbook.X`). */
export interface AvroRecordSchema {
  readonly type: 'record';
  readonly name: string;
  readonly doc?: string;
  readonly fields: readonly AvroField[];
}

/** A record field. */
export interface AvroField {
  readonly name: string;
  readonly type: AvroSchema;
  readonly doc?: string;
  readonly default?: unknown;
}

/** An enum. */
export interface AvroEnumSchema {
  readonly type: 'enum';
  readonly name: string;
  readonly symbols: readonly string[];
  readonly doc?: string;
  /** Symbol a reader uses for a writer symbol it does not know (Avro 1.9+). */
  readonly default?: string;
}

/** An array. */
export interface AvroArraySchema {
  readonly type: 'array';
  readonly items: AvroSchema;
}

/** A map (keys are strings). */
export interface AvroMapSchema {
  readonly type: 'map';
  readonly values: AvroSchema;
}

/** A fixed-size byte string. */
export interface AvroFixedSchema {
  readonly type: 'fixed';
  readonly name: string;
  readonly size: number;
}

/** A primitive in object form, used to attach a logical type (e.g. `timestamp-millis`). */
export interface AvroAnnotatedPrimitive {
  readonly type: 'null' | 'boolean' | 'int' | 'long' | 'float' | 'double' | 'bytes' | 'string';
  readonly logicalType?: string;
}

/** Builds a record schema. `name` must be fully qualified. */
export function record(name: string, fields: readonly AvroField[], doc?: string): AvroRecordSchema {
  return doc === undefined ? { type: 'record', name, fields } : { type: 'record', name, doc, fields };
}

/** Builds a required field. */
export function field(name: string, type: AvroSchema, doc?: string): AvroField {
  return doc === undefined ? { name, type } : { name, type, doc };
}

/**
 * Builds a nullable field (`["null", type]`, default `null`), so a later reader that lacks the
 * field's writer still gets a value. TypeScript side: `T | null`.
 */
export function optional(name: string, type: AvroSchema, doc?: string): AvroField {
  const base = { name, type: ['null', type] as const, default: null };
  return doc === undefined ? base : { ...base, doc };
}

/** Builds a field with a default value (for fields added in a later schema version). */
export function withDefault(name: string, type: AvroSchema, defaultValue: unknown, doc?: string): AvroField {
  const base = { name, type, default: defaultValue };
  return doc === undefined ? base : { ...base, doc };
}

/** Builds an array schema. */
export function arrayOf(items: AvroSchema): AvroArraySchema {
  return { type: 'array', items };
}

/** Builds a map schema. */
export function mapOf(values: AvroSchema): AvroMapSchema {
  return { type: 'map', values };
}

/** Builds an enum schema. `name` must be fully qualified. */
export function enumOf(name: string, symbols: readonly string[]): AvroEnumSchema {
  return { type: 'enum', name, symbols };
}

/** Epoch milliseconds (`long` with logical type `timestamp-millis`); a `number` in TypeScript. */
export const timestampMillis: AvroAnnotatedPrimitive = { type: 'long', logicalType: 'timestamp-millis' };

/**
 * Turns a tuple of enum symbols into a const object (`{ A: 'A', … }`), the project's substitute
 * for TypeScript `enum`s: the tuple feeds the Avro schema, the object is for code.
 */
export function symbolsObject<const S extends readonly string[]>(symbols: S): { readonly [K in S[number]]: K } {
  return Object.freeze(Object.fromEntries(symbols.map((s) => [s, s]))) as { readonly [K in S[number]]: K };
}

/** A variant of a tagged union: `{ type: K, …attributes }`. */
export type Tagged<K extends string, A> = { type: K } & A;

/** The discriminated union `{ type: K } & M[K]` over every key of a map of attributes. */
export type TaggedUnion<M> = { [K in keyof M & string]: Tagged<K, M[K]> }[keyof M & string];
