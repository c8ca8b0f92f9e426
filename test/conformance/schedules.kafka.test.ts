import { describe } from 'node:test';
import { schedulesConformance } from './schedules-conformance.js';

describe('schedules on the real Kafka broker', () => schedulesConformance('kafka'));
