/**
 * Workflows of the saga helper's replay tests: book steps, then undo them with a `Saga`.
 * @module
 */
import { proxyActivities, Saga, sleep, type CompensationReport } from '../../workflow/index.js';

/** The activities the saga workflows call (types only). */
export interface BookingActivities {
  book(step: string): Promise<string>;
  cancel(step: string): Promise<string>;
}

const { book, cancel } = proxyActivities<BookingActivities>({
  startToCloseTimeout: '10s',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['PaymentDeclined'] },
});

/** Books hotel, flight and payment; when one fails, undoes the bookings made (one by one, or all at once). */
export async function sagaTrip(parallelCompensation: boolean): Promise<{ booked: boolean; report?: CompensationReport }> {
  const saga = new Saga({ parallelCompensation });
  try {
    await book('hotel');
    saga.addCompensation('cancelHotel', () => cancel('hotel'));
    await book('flight');
    saga.addCompensation('cancelFlight', () => cancel('flight'));
    await book('payment');
    return { booked: true };
  } catch {
    return { booked: false, report: await saga.compensate() };
  }
}

/** Books a hotel, then waits a day; a cancel request during the wait still undoes the booking. */
export async function sagaCancelled(): Promise<void> {
  const saga = new Saga();
  await book('hotel');
  saga.addCompensation('cancelHotel', () => cancel('hotel'));
  try {
    await sleep('1d');
  } catch (error) {
    await saga.compensate();
    throw error;
  }
}

/** Compensates twice, then tries to add a compensation: reports what each step did. */
export async function sagaCompensatesOnce(): Promise<{ first: CompensationReport; second: CompensationReport; refused: string }> {
  const saga = new Saga();
  saga.addCompensation('cancelHotel', () => cancel('hotel'));
  const first = await saga.compensate();
  const second = await saga.compensate();
  let refused = '';
  try {
    saga.addCompensation('cancelLate', () => cancel('late'));
  } catch (error) {
    refused = (error as Error).message;
  }
  return { first, second, refused };
}
