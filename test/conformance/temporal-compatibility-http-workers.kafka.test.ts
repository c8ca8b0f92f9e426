import { describe } from 'node:test';
import { temporalCompatibilityConformance } from './temporal-compatibility-conformance.js';

describe("Temporal's API through logbook/*, with the workers on the gateway's HTTP task path (NativeConnection.connect({ address })), on the real broker", () => temporalCompatibilityConformance('kafka', { taskPath: 'http' }));
