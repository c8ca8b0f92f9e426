import { describe } from 'node:test';
import { sagaConformance } from './saga-conformance.js';

describe('saga compensation reported for manual intervention on the embedded backend', () => sagaConformance('embedded'));
