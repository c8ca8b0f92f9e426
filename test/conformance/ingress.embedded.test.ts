import { describe } from 'node:test';
import { ingressConformance } from './ingress-conformance.js';

describe('ingress from business topics on the embedded backend', () => ingressConformance('embedded'));
