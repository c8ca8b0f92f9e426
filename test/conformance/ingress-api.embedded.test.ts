import { describe } from 'node:test';
import { ingressApiConformance } from './ingress-api-conformance.js';

describe('ingress mappings through the HTTP API on the embedded backend', () => ingressApiConformance('embedded'));
