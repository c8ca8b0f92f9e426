/** Activities of the Temporal-compatible workflows (`temporal-compatible.ts`). */
import { ApplicationFailure } from 'logbook/common';

/** Charges a card; the card `declined` fails for good with type `CardDeclined` and the card as detail. */
export async function chargeCard(card: string): Promise<string> {
  if (card === 'declined') throw ApplicationFailure.nonRetryable(`card ${card} was declined`, 'CardDeclined', { card });
  return `charged ${card}`;
}
