/**
 * `sequential` after an incompatible change: charge before reserve. Replaying a history recorded
 * with the original must raise a NonDeterminismError.
 * @module
 */
import { proxyActivities } from '../../workflow/index.js';
import type { OrderActivities } from './workflows.js';

const { reserve, charge, ship } = proxyActivities<OrderActivities>({ startToCloseTimeout: '10s' });

/** The reordered workflow. */
export async function sequential(orderId: string): Promise<string> {
  const receipt = await charge(orderId);
  const reservation = await reserve(receipt);
  return ship(reservation);
}
