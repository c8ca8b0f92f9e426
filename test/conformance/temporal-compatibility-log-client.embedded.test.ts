import { describe } from 'node:test';
import { temporalCompatibilityConformance } from './temporal-compatibility-conformance.js';

describe("Temporal's API through logbook/*, with the client writing to the log itself (Connection over the engine's log), on the embedded backend", () => temporalCompatibilityConformance('embedded', { clientPath: 'log' }));
