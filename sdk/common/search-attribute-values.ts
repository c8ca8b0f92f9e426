/**
 * Search attributes as Temporal's TypeScript API writes them, untyped (`{ Name: ['value'] }`) or
 * typed (`{ Name: { type: 'Keyword', value } }`), and as Logbook's contract holds them (typed).
 * @module
 */
import type { SearchAttributes, SearchAttributeValue } from '../../topics/schemas/common/v1-records.js';

/** An attribute as code may give it: Temporal's array of values, or Logbook's typed value. */
export type SearchAttributeInput = readonly unknown[] | SearchAttributeValue;

/**
 * The typed form of attributes given either way. An array gets the type its values show —
 * strings Keyword (several: KeywordList), safe integers Int, other numbers Double, booleans Bool,
 * `Date`s Datetime; an empty array is an empty KeywordList, which an upsert takes as removing the
 * attribute. A Text or Double attribute whose values look otherwise needs the typed form.
 * @throws TypeError naming the attribute whose values are of mixed or unknown kinds
 */
export function typedSearchAttributes(input: Readonly<Record<string, SearchAttributeInput>>): SearchAttributes {
  const typed: SearchAttributes = {};
  for (const [name, given] of Object.entries(input)) {
    if (!Array.isArray(given)) {
      typed[name] = given as SearchAttributeValue;
      continue;
    }
    const values = given as readonly unknown[];
    if (values.every((v) => typeof v === 'string')) typed[name] = values.length === 1 ? { type: 'Keyword', value: values[0] as string } : { type: 'KeywordList', value: [...(values as string[])] };
    else if (values.length !== 1) throw new TypeError(`search attribute '${name}': only strings may be given several at once (KeywordList)`);
    else if (typeof values[0] === 'boolean') typed[name] = { type: 'Bool', value: values[0] };
    // Int is a 64-bit integer held exactly: a whole number past 2^53 is a Double.
    else if (typeof values[0] === 'number') typed[name] = Number.isSafeInteger(values[0]) ? { type: 'Int', value: values[0] } : { type: 'Double', value: values[0] };
    else if (values[0] instanceof Date) typed[name] = { type: 'Datetime', value: values[0].getTime() };
    else throw new TypeError(`search attribute '${name}': ${JSON.stringify(values[0])} is none of string, number, boolean or Date`);
  }
  return typed;
}

/** Temporal's untyped view of typed attributes: each as an array of values, Datetimes as `Date`. */
export function untypedSearchAttributes(typed: Readonly<Record<string, { readonly type: string; readonly value: unknown }>>): Record<string, unknown[]> {
  return Object.fromEntries(
    Object.entries(typed).map(([name, attribute]) => {
      if (attribute.type === 'Datetime') return [name, [new Date(attribute.value as number | string)]];
      return [name, Array.isArray(attribute.value) ? [...(attribute.value as unknown[])] : [attribute.value]];
    }),
  );
}
