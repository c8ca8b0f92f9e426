import { describe } from 'node:test';
import { temporalCompatibilityConformance } from './temporal-compatibility-conformance.js';

describe("Temporal's API through logbook/*, with the client on Kafka itself (Connection.connect({ brokers })), on the real broker", () => temporalCompatibilityConformance('kafka', { clientPath: 'log' }));
