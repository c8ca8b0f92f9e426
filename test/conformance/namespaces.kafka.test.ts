import { describe } from 'node:test';
import { namespacesConformance } from './namespaces-conformance.js';

describe('namespaces on the real Kafka broker', () => namespacesConformance('kafka'));
