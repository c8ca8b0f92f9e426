/**
 * Ordering and paging of matching rows: newest start first (Temporal's default), ties broken by
 * workflow id then run id so the order is total; a page token is the sort key of the last row
 * served, so a page is "the next rows after that key" whichever node gathers them.
 * @module
 */
import type { VisibilityRow } from '../../topics/schemas/visibility-row/index.js';
import { InvalidQueryError } from './invalid-query.js';

/** The position of a row in the listing order. */
export interface SortKey {
  startTime: number;
  workflowId: string;
  runId: string;
}

/** Negative when `a` comes first in the listing. */
export function compareRows(a: SortKey, b: SortKey): number {
  if (a.startTime !== b.startTime) return b.startTime - a.startTime;
  if (a.workflowId !== b.workflowId) return a.workflowId < b.workflowId ? -1 : 1;
  return a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0;
}

/** The opaque token resuming after `row`. */
export function pageTokenAfter(row: SortKey): string {
  return Buffer.from(JSON.stringify([row.startTime, row.workflowId, row.runId])).toString('base64url');
}

/** The sort key a token resumes after. @throws InvalidQueryError for a token this code did not write */
export function decodePageToken(token: string): SortKey {
  try {
    const [startTime, workflowId, runId] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[];
    if (typeof startTime === 'number' && typeof workflowId === 'string' && typeof runId === 'string') return { startTime, workflowId, runId };
  } catch {
    // Falls through to the error below: a malformed token is the caller's mistake.
  }
  throw new InvalidQueryError('invalid nextPageToken');
}

/** One page of rows and the token of the next one (null on the last page). */
export interface Page {
  rows: VisibilityRow[];
  nextPageToken: string | null;
}

/** The page of `pageSize` rows after `after` (from the start when undefined), from rows in any order. */
export function pageOf(rows: readonly VisibilityRow[], pageSize: number, after?: SortKey): Page {
  const ordered = rows.filter((r) => !after || compareRows(r, after) > 0).sort(compareRows);
  const page = ordered.slice(0, pageSize);
  const last = page[page.length - 1];
  return { rows: page, nextPageToken: ordered.length > pageSize && last ? pageTokenAfter(last) : null };
}
