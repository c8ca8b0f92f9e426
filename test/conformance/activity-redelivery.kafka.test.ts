import { describe } from 'node:test';
import { activityRedelivery } from './activity-redelivery.js';

describe('activity task redelivery on the real Kafka broker', () => activityRedelivery('kafka'));
