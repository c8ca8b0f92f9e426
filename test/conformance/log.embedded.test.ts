import { describe } from 'node:test';
import { embeddedBackend } from '../support/test-env.js';
import { logConformance } from './log-conformance.js';

describe('log conformance on the embedded backend', () => logConformance(embeddedBackend));
