/**
 * KafkaJS, loaded with Logbook's read_committed filter in place of its own (see
 * aborted-transactions.ts). KafkaJS's record batch module binds the filter when it loads, so the
 * replacement is put in the module cache before KafkaJS loads; every Logbook module takes KafkaJS
 * from here. If KafkaJS was loaded earlier by something else, that copy would keep the faulty
 * filter, so this refuses to start instead of reading aborted records.
 * @module
 */
import { createRequire, Module } from 'node:module';
import type * as KafkaJs from 'kafkajs';
import { withoutAbortedRecords, type AbortedTransaction, type FetchedMessage } from './aborted-transactions.js';

const require = createRequire(import.meta.url);
const filterPath = require.resolve('kafkajs/src/consumer/filterAbortedMessages.js');
const batchPath = require.resolve('kafkajs/src/consumer/batch.js');

const LOGBOOK_FILTER = Symbol.for('logbook.withoutAbortedRecords');

if (!(require.cache[filterPath]?.exports as Record<symbol, unknown> | undefined)?.[LOGBOOK_FILTER]) {
  if (require.cache[batchPath]) {
    throw new Error('kafkajs was loaded before Logbook replaced its read_committed filter; import kafkajs through topics/log/kafka/kafkajs.ts (or load the Logbook log first)');
  }
  const module = new Module(filterPath);
  module.filename = filterPath;
  module.loaded = true;
  module.exports = Object.assign(kafkaJsFilter, { [LOGBOOK_FILTER]: true });
  require.cache[filterPath] = module;
}

/** The filter with KafkaJS's signature. */
function kafkaJsFilter({ messages, abortedTransactions }: { messages: FetchedMessage[]; abortedTransactions?: AbortedTransaction[] }): FetchedMessage[] {
  return withoutAbortedRecords(messages, abortedTransactions);
}

const kafkajs = require('kafkajs') as typeof KafkaJs;

/** KafkaJS's client class. */
export const Kafka = kafkajs.Kafka;
/** A KafkaJS client. */
export type Kafka = KafkaJs.Kafka;
/** KafkaJS's log levels. */
export const logLevel = kafkajs.logLevel;
/** KafkaJS's group assigner protocol helpers. */
export const AssignerProtocol = kafkajs.AssignerProtocol;
/** KafkaJS's partitioners. */
export const Partitioners = kafkajs.Partitioners;
/** KafkaJS's admin config resource types. */
export const ConfigResourceTypes = kafkajs.ConfigResourceTypes;
