/**
 * Validation of a namespace's payload guards as a register or update call sends them: the
 * codec-required task queues and the refused search attributes (see
 * `processors/history/codec-required.ts` and `search-attribute-guard.ts`). Pure.
 * @module
 */
import { EVERY_TASK_QUEUE } from '../../topics/schemas/namespace/index.js';
import { identifierProblem, taskQueueProblem } from '../../topics/validation/index.js';

/** Most entries either list may have: the namespace record is read by every node, and a guard lists names, not data. */
export const MAX_GUARD_ENTRIES = 100;

/** The names of the two guard lists, as the API and the record spell them. */
export type GuardListName = 'codecRequiredTaskQueues' | 'refusedSearchAttributes';

function entryProblem(list: GuardListName, entry: unknown, index: number): string | null {
  const field = `'${list}'[${index}]`;
  if (list === 'refusedSearchAttributes') return identifierProblem(entry, `${field} (a search attribute name)`);
  return entry === EVERY_TASK_QUEUE ? null : taskQueueProblem(entry, `${field} (a task queue, or '${EVERY_TASK_QUEUE}' for every queue)`);
}

/**
 * Why `value` cannot be the guard list `list`, or null: it must be an array of at most
 * {@link MAX_GUARD_ENTRIES} valid names (task queue names or `*`; search attribute names).
 */
export function guardListProblem(list: GuardListName, value: unknown): string | null {
  if (!Array.isArray(value)) return `'${list}' must be an array of names, got ${value === null ? 'null' : typeof value}`;
  if (value.length > MAX_GUARD_ENTRIES) return `'${list}' has ${value.length} entries; at most ${MAX_GUARD_ENTRIES} are allowed`;
  for (const [index, entry] of value.entries()) {
    const problem = entryProblem(list, entry, index);
    if (problem) return problem;
  }
  return null;
}

/** The list with duplicates dropped, first occurrence kept (order is how the caller wrote it). */
export function distinctNames(names: readonly string[]): string[] {
  return [...new Set(names)];
}
