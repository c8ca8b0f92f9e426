import { describe } from 'node:test';
import { kafkaBackend } from '../support/test-env.js';
import { logConformance } from './log-conformance.js';

describe('log conformance on the real Kafka broker', () => logConformance(kafkaBackend));
