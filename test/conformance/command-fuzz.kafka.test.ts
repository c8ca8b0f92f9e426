import { describe } from 'node:test';
import { commandFuzzConformance } from './command-fuzz-conformance.js';

describe('random and mutated commands on the real Kafka broker', () => commandFuzzConformance('kafka'));
