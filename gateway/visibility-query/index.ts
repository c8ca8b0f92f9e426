/**
 * The visibility filter language: parse and check a query (`compileQuery`), then page the
 * matching rows (`pageOf`). Pure: no I/O, no clock.
 * @module
 */
export { InvalidQueryError } from './invalid-query.js';
export { compileQuery, type RowPredicate } from './evaluate.js';
export { parseQuery, type Filter } from './parser.js';
export { compareRows, decodePageToken, pageOf, pageTokenAfter, type Page, type SortKey } from './paging.js';
export { EXECUTION_STATUSES, SYSTEM_ATTRIBUTES } from './attributes.js';
