import { describe } from 'node:test';
import { checkpointsConformance } from './checkpoints-conformance.js';

describe('store checkpoints on the embedded backend', () => checkpointsConformance('embedded'));
