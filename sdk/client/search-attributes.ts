/**
 * Checks search attributes given at start (from JSON or TypeScript) against their declared types,
 * so a malformed one is a 400 naming it rather than a record the engine cannot encode.
 * @module
 */
import type { SearchAttributes, SearchAttributeValue } from '../../topics/schemas/common/v1-records.js';
import { datetimeProblem } from '../../topics/validation/index.js';

const CHECKS: Readonly<Record<SearchAttributeValue['type'], (value: unknown) => boolean>> = {
  Keyword: (v) => typeof v === 'string',
  Text: (v) => typeof v === 'string',
  Int: (v) => Number.isSafeInteger(v),
  Double: (v) => typeof v === 'number' && Number.isFinite(v),
  Bool: (v) => typeof v === 'boolean',
  // Within the range of a JavaScript Date, so the time can be listed (topics/validation `datetimeProblem`).
  Datetime: (v) => datetimeProblem(v, 'Datetime') === null,
  KeywordList: (v) => Array.isArray(v) && v.every((s) => typeof s === 'string'),
};

/**
 * The typed search attributes in `input` (`{ Name: { type: 'Keyword', value: 'gold' } }`); a
 * Datetime may be given as an RFC 3339 string and is stored as epoch milliseconds.
 * @throws TypeError naming the attribute that does not fit its type
 */
export function checkedSearchAttributes(input: unknown): SearchAttributes {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new TypeError("'searchAttributes' must be an object of { type, value } by name");
  const checked: SearchAttributes = {};
  for (const [name, attribute] of Object.entries(input as Record<string, unknown>)) {
    const { type, value } = (attribute ?? {}) as { type?: unknown; value?: unknown };
    const check = typeof type === 'string' ? CHECKS[type as SearchAttributeValue['type']] : undefined;
    if (!check) throw new TypeError(`search attribute '${name}' has type ${JSON.stringify(type)}; expected one of ${Object.keys(CHECKS).join(', ')}`);
    const stored = type === 'Datetime' && typeof value === 'string' ? Date.parse(value) : value;
    if (!check(stored)) throw new TypeError(`search attribute '${name}' (${type}) has value ${JSON.stringify(value)} that does not fit its type`);
    checked[name] = { type, value: stored } as SearchAttributeValue;
  }
  return checked;
}
