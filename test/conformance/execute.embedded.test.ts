import { describe } from 'node:test';
import { executeConformance } from './execute-conformance.js';

describe('execute (start and wait in one write) on the embedded backend', () => executeConformance('embedded'));
