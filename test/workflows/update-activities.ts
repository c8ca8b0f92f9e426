/**
 * The activity an update handler of `updates.ts` runs (used by the update conformance tests).
 * @module
 */

/** The price of `items` items with a coupon: 10 each, half price with `HALF`. */
export async function priceWithCoupon(items: number, coupon: string): Promise<number> {
  return coupon === 'HALF' ? items * 5 : items * 10;
}
