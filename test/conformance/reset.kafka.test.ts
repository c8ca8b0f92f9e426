import { describe } from 'node:test';
import { resetConformance } from './reset-conformance.js';

describe('reset through the client and the HTTP API on the real Kafka broker', () => resetConformance('kafka'));
