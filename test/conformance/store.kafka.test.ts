import { describe } from 'node:test';
import { kafkaBackend } from '../support/test-env.js';
import { storeConformance } from './store-conformance.js';

describe('state store restore on the real Kafka broker', () => storeConformance(kafkaBackend));
