import { describe } from 'node:test';
import { embeddedBackend } from '../support/test-env.js';
import { storeConformance } from './store-conformance.js';

describe('state store restore on the embedded backend', () => storeConformance(embeddedBackend));
