import { describe } from 'node:test';
import { externalSignalsConformance } from './external-signals-conformance.js';

describe('signals and cancellations between workflows on the real Kafka broker', () => externalSignalsConformance('kafka'));
