import { describe } from 'node:test';
import { continueAsNewConformance } from './continue-as-new-conformance.js';

describe('continue-as-new and history limits on the real Kafka broker', () => continueAsNewConformance('kafka'));
