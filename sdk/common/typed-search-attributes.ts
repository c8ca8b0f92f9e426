/**
 * Typed search attribute keys, as Temporal's `@temporalio/common` has them:
 * `defineSearchAttributeKey(name, SearchAttributeType.INT)`, pairs `{ key, value }`, and
 * {@link TypedSearchAttributes} to read them (`workflowInfo().typedSearchAttributes.get(key)`).
 * @module
 */
import type { SearchAttributes, SearchAttributeValue } from '../../topics/schemas/common/v1-records.js';

/** The types of search attributes (Temporal's `SearchAttributeType`). */
export const SearchAttributeType = {
  TEXT: 'TEXT',
  KEYWORD: 'KEYWORD',
  INT: 'INT',
  DOUBLE: 'DOUBLE',
  BOOL: 'BOOL',
  DATETIME: 'DATETIME',
  KEYWORD_LIST: 'KEYWORD_LIST',
} as const;
export type SearchAttributeType = (typeof SearchAttributeType)[keyof typeof SearchAttributeType];

/** What a value of each type is in code. */
export interface SearchAttributeTypeValues {
  TEXT: string;
  KEYWORD: string;
  INT: number;
  DOUBLE: number;
  BOOL: boolean;
  DATETIME: Date;
  KEYWORD_LIST: string[];
}

/** A named, typed search attribute (Temporal's `SearchAttributeKey`). */
export interface SearchAttributeKey<T extends SearchAttributeType = SearchAttributeType> {
  readonly name: string;
  readonly type: T;
}

/** A key with its value; `null` as the value of an upsert removes the attribute. */
export interface SearchAttributePair<T extends SearchAttributeType = SearchAttributeType> {
  readonly key: SearchAttributeKey<T>;
  readonly value: SearchAttributeTypeValues[T] | null;
}

/** Defines a typed key (Temporal's `defineSearchAttributeKey`). */
export function defineSearchAttributeKey<T extends SearchAttributeType>(name: string, type: T): SearchAttributeKey<T> {
  if (typeof name !== 'string' || name === '') throw new TypeError('a search attribute key needs a name');
  if (!(type in CONTRACT_TYPE)) throw new TypeError(`search attribute type must be one of ${Object.keys(CONTRACT_TYPE).join(', ')}; got ${JSON.stringify(type)}`);
  return { name, type };
}

const CONTRACT_TYPE: Readonly<Record<SearchAttributeType, SearchAttributeValue['type']>> = {
  TEXT: 'Text', KEYWORD: 'Keyword', INT: 'Int', DOUBLE: 'Double', BOOL: 'Bool', DATETIME: 'Datetime', KEYWORD_LIST: 'KeywordList',
};
const KEY_TYPE: Readonly<Record<SearchAttributeValue['type'], SearchAttributeType>> = {
  Text: 'TEXT', Keyword: 'KEYWORD', Int: 'INT', Double: 'DOUBLE', Bool: 'BOOL', Datetime: 'DATETIME', KeywordList: 'KEYWORD_LIST',
};

/**
 * Pairs as the contract's typed attributes; a pair whose value is `null` becomes an empty
 * KeywordList, which an upsert takes as removing the attribute.
 */
export function searchAttributesOfPairs(pairs: readonly SearchAttributePair[]): SearchAttributes {
  const typed: SearchAttributes = {};
  for (const { key, value } of pairs) {
    if (value === null) typed[key.name] = { type: 'KeywordList', value: [] };
    else if (key.type === 'DATETIME') typed[key.name] = { type: 'Datetime', value: (value as Date).getTime() };
    else typed[key.name] = { type: CONTRACT_TYPE[key.type], value } as SearchAttributeValue;
  }
  return typed;
}

/** Typed search attributes to read by key (Temporal's `TypedSearchAttributes`). */
export class TypedSearchAttributes {
  private readonly pairs: ReadonlyMap<string, SearchAttributePair>;

  constructor(pairs: readonly SearchAttributePair[] = []) {
    this.pairs = new Map(pairs.filter((p) => p.value !== null).map((p) => [p.key.name, p]));
  }

  /** From the contract's typed attributes. */
  static fromContract(attributes: Readonly<SearchAttributes>): TypedSearchAttributes {
    return new TypedSearchAttributes(
      Object.entries(attributes).map(([name, attribute]) => {
        const type = KEY_TYPE[attribute.type];
        const value = type === 'DATETIME' ? new Date(attribute.value as number) : Array.isArray(attribute.value) ? [...attribute.value] : attribute.value;
        return { key: { name, type }, value } as SearchAttributePair;
      }),
    );
  }

  /** The value of `key`, or undefined when the attribute is absent or has another type. */
  get<T extends SearchAttributeType>(key: SearchAttributeKey<T>): SearchAttributeTypeValues[T] | undefined {
    const pair = this.pairs.get(key.name);
    return pair && pair.key.type === key.type ? (pair.value as SearchAttributeTypeValues[T]) : undefined;
  }

  /** Every attribute as a pair. */
  getAll(): SearchAttributePair[] {
    return [...this.pairs.values()];
  }

  /** The pairs, as JSON shows them (a workflow may return or log its attributes). */
  toJSON(): SearchAttributePair[] {
    return this.getAll();
  }

  /** A copy with `pairs` applied (a `null` value removes). */
  updateCopy(pairs: readonly SearchAttributePair[]): TypedSearchAttributes {
    const next = new Map(this.pairs);
    for (const pair of pairs) {
      if (pair.value === null) next.delete(pair.key.name);
      else next.set(pair.key.name, pair);
    }
    return new TypedSearchAttributes([...next.values()]);
  }
}
