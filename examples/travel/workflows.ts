import { ApplicationFailure, proxyActivities } from '../../sdk/workflow/index.js';
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
 * already made are compensated in reverse order; a compensation that fails is reported, never
 * swallowed, and the others still run.
 */
export async function bookTrip(request: TripRequest): Promise<TripResult> {
  const compensations: Array<{ step: string; run: () => Promise<unknown> }> = [];
  const steps: Array<{ name: 'hotel' | 'flight' | 'car' | 'payment'; book: () => Promise<unknown>; undo?: { step: string; run: () => Promise<unknown> } }> = [
    { name: 'hotel', book: () => acts.bookHotel(request), undo: { step: 'cancelHotel', run: () => acts.cancelHotel(request) } },
    { name: 'flight', book: () => acts.bookFlight(request), undo: { step: 'cancelFlight', run: () => acts.cancelFlight(request) } },
    { name: 'car', book: () => acts.bookCar(request), undo: { step: 'cancelCar', run: () => acts.cancelCar(request) } },
    { name: 'payment', book: () => acts.chargePayment(request) },
  ];
  for (const step of steps) {
    try {
      await step.book();
    } catch (error) {
      const compensated: string[] = [];
      const compensationFailures: Array<{ step: string; error: string }> = [];
      for (const undo of compensations) {
        try {
          await undo.run();
          compensated.push(undo.step);
        } catch (undoError) {
          compensationFailures.push({ step: undo.step, error: describe(undoError) });
        }
      }
      return { tripId: request.tripId, booked: false, failedStep: `${step.name}: ${describe(error)}`, compensated, compensationFailures };
    }
    if (step.undo) compensations.unshift(step.undo);
  }
  return { tripId: request.tripId, booked: true, compensated: [], compensationFailures: [] };
}

function describe(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof ApplicationFailure) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
