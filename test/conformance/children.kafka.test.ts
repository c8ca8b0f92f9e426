import { describe } from 'node:test';
import { childrenConformance } from './children-conformance.js';

describe('child workflows on the real Kafka broker', () => childrenConformance('kafka'));
