/**
 * How an upsert changes a run's search attributes, in the engine and in workflow code alike: each
 * attribute given replaces the run's, and one given as an empty KeywordList is removed (what
 * Temporal's `upsertSearchAttributes({ Name: [] })` means).
 * @module
 */
import type { SearchAttributes } from './v1-records.js';

/** The attributes after `upsert` (a new object; neither argument is changed). */
export function mergeSearchAttributes(current: SearchAttributes, upsert: SearchAttributes): SearchAttributes {
  const merged: SearchAttributes = { ...current };
  for (const [name, value] of Object.entries(upsert)) {
    if (value.type === 'KeywordList' && value.value.length === 0) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}
