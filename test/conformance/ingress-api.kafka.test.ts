import { describe } from 'node:test';
import { ingressApiConformance } from './ingress-api-conformance.js';

describe('ingress mappings through the HTTP API on the real Kafka broker', () => ingressApiConformance('kafka'));
