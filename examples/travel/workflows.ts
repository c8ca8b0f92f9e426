import { describeFailure, proxyActivities, Saga } from 'logbook/workflow';
import type * as activities from './activities.js';

/** A trip to book. `failAt` makes a step (or a compensation) fail, to demonstrate the saga. */
export interface TripRequest {
  readonly tripId: string;
  readonly failAt?: 'hotel' | 'flight' | 'car' | 'payment';
  readonly failCompensation?: 'cancelHotel' | 'cancelFlight' | 'cancelCar';
}

/** The outcome: booked, or which compensations succeeded and which failed (for manual follow-up). */
export interface TripResult {
  readonly tripId: string;
  readonly booked: boolean;
  readonly failedStep?: string;
  readonly compensated: string[];
  readonly compensationFailures: Array<{ step: string; error: string }>;
}

const acts = proxyActivities<typeof activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', maximumAttempts: 2 },
});

/**
 * The travel booking saga: hotel, flight, car, payment. When a step fails for good, the bookings
 * already made are compensated in reverse order by a {@link Saga}; a compensation that fails is
 * reported, never swallowed, the others still run, and the run is tagged `RequiresIntervention`.
 */
export async function bookTrip(request: TripRequest): Promise<TripResult> {
  const saga = new Saga();
  let step = 'hotel';
  try {
    await acts.bookHotel(request);
    saga.addCompensation('cancelHotel', () => acts.cancelHotel(request));
    step = 'flight';
    await acts.bookFlight(request);
    saga.addCompensation('cancelFlight', () => acts.cancelFlight(request));
    step = 'car';
    await acts.bookCar(request);
    saga.addCompensation('cancelCar', () => acts.cancelCar(request));
    step = 'payment';
    await acts.chargePayment(request);
  } catch (error) {
    const report = await saga.compensate();
    return {
      tripId: request.tripId,
      booked: false,
      failedStep: `${step}: ${describeFailure(error)}`,
      compensated: report.compensated,
      compensationFailures: report.failed.map((f) => ({ step: f.name, error: f.error })),
    };
  }
  return { tripId: request.tripId, booked: true, compensated: [], compensationFailures: [] };
}
