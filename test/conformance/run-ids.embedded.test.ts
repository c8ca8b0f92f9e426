import { describe } from 'node:test';
import { runIdsConformance } from './run-ids-conformance.js';

describe('run ids on the embedded backend', () => runIdsConformance('embedded'));
