import { describe } from 'node:test';
import { resetConformance } from './reset-conformance.js';

describe('reset through the client and the HTTP API on the embedded backend', () => resetConformance('embedded'));
