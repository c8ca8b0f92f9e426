/**
 * Workflows whose runs are listed by visibility queries: one type tagged only at start, one that
 * upserts its own search attributes; each completes at once or waits for ever, as asked.
 * @module
 */
import { condition, upsertSearchAttributes } from '../../sdk/workflow/index.js';

/** Tagged by the starter (search attributes at start); completes now, or never. */
export async function visibleOrder(complete: boolean): Promise<string> {
  if (!complete) await condition(() => false);
  return 'order done';
}

/** Tags itself with `CustomerTier` and `Priority` (gold first); completes now, or never. */
export async function visibleTrip(tier: string, complete: boolean): Promise<string> {
  upsertSearchAttributes({ CustomerTier: { type: 'Keyword', value: tier }, Priority: { type: 'Int', value: tier === 'gold' ? 1 : 2 } });
  if (!complete) await condition(() => false);
  return 'trip done';
}
