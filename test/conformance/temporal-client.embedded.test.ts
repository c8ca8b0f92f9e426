import { describe } from 'node:test';
import { temporalClientConformance } from './temporal-client-conformance.js';

describe('logbook/client, Temporal\'s client API, on the embedded backend', () => temporalClientConformance('embedded'));
