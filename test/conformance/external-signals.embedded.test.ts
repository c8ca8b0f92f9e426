import { describe } from 'node:test';
import { externalSignalsConformance } from './external-signals-conformance.js';

describe('signals and cancellations between workflows on the embedded backend', () => externalSignalsConformance('embedded'));
