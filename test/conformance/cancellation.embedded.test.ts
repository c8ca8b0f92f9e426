import { describe } from 'node:test';
import { cancellationConformance } from './cancellation-conformance.js';

describe('cancellation, activity cancellation types and the payload limit on the embedded backend', () => cancellationConformance('embedded'));
