import { describe } from 'node:test';
import { temporalCompatibilityConformance } from './temporal-compatibility-conformance.js';

describe("Temporal's API through logbook/client, logbook/worker, logbook/activity and logbook/workflow, on the real Kafka broker", () => temporalCompatibilityConformance('kafka'));
