import { describe } from 'node:test';
import { activityHolder } from './activity-holder.js';

describe('one holder per activity attempt on the real Kafka broker', () => activityHolder('kafka'));
