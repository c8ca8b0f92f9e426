import { ApplicationFailure } from 'logbook/common';
import type { TripRequest } from './workflows.js';

/** Example booking activities; `failAt` / `failCompensation` make one fail for good. */
const step = (name: string) => async (request: TripRequest): Promise<string> => {
  if (request.failAt === name || request.failCompensation === name) {
    throw ApplicationFailure.nonRetryable(`${name} failed for trip ${request.tripId}`, `${name}Failed`);
  }
  return `${name}-${request.tripId}`;
};

export const bookHotel = step('hotel');
export const bookFlight = step('flight');
export const bookCar = step('car');
export const chargePayment = step('payment');
export const cancelHotel = step('cancelHotel');
export const cancelFlight = step('cancelFlight');
export const cancelCar = step('cancelCar');
