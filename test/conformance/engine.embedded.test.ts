import { describe } from 'node:test';
import { engineConformance } from './engine-conformance.js';

describe('the engine on the embedded backend', () => engineConformance('embedded'));
