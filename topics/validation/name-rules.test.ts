import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topicCatalog } from '../catalog.js';
import {
  identifierProblem,
  MAX_IDENTIFIER_BYTES,
  MAX_NAMESPACE_LENGTH,
  MAX_TASK_QUEUE_LENGTH,
  MAX_TOPIC_NAME_LENGTH,
  MAX_TOPIC_PREFIX_LENGTH,
  namespaceProblem,
  TASK_TOPIC_FIXED_LENGTH,
  taskQueueProblem,
  taskQueueTopicPart,
  topicNameProblem,
  topicPrefixProblem,
  utf8Length,
} from './name-rules.js';

test('the three names that once broke shards are refused, each with a message naming the field and the rule', () => {
  assert.equal(namespaceProblem('a.b'), "namespace 'a.b' may contain only letters, digits, '_' and '-' (it is part of a topic name)");
  assert.match(namespaceProblem('../../etc') ?? '', /^namespace '\.\.\/\.\.\/etc' may contain only letters, digits/);
  assert.match(taskQueueProblem('../../q') ?? '', /^taskQueue '\.\.\/\.\.\/q' may contain only letters, digits, '_' and '-', and '\/' between them/);
  assert.equal(namespaceProblem(''), 'namespace must be a non-empty string');
  assert.equal(taskQueueProblem(42), 'taskQueue must be a non-empty string');
  assert.equal(namespaceProblem('orders_eu-1'), null);
});

test("task queue names may have '/' between their parts, which becomes '.' in topic names (no namespace or queue name has one, so no two queues share a topic)", () => {
  assert.equal(taskQueueProblem('team/orders'), null);
  assert.equal(taskQueueProblem('a/b/c_d-e'), null);
  for (const bad of ['/orders', 'orders/', 'team//orders', 'team/./orders', 'team/or ders']) {
    assert.match(taskQueueProblem(bad) ?? '', /may contain only letters, digits, '_' and '-', and '\/' between them/, bad);
  }
  assert.match(taskQueueProblem(`a/${'q'.repeat(MAX_TASK_QUEUE_LENGTH)}`) ?? '', /characters long; at most 128 are allowed/);
  assert.equal(taskQueueTopicPart('team/orders'), 'team.orders');
  const catalog = topicCatalog({ shards: 1 });
  assert.equal(catalog.taskTopics('default', 'team/orders').workflow, 'logbook.tasks.workflow.default.team.orders');
  assert.equal(catalog.taskTopics('default', 'orders').activity, 'logbook.tasks.activity.default.orders');
  assert.notEqual(catalog.taskTopics('team', 'orders').workflow, catalog.taskTopics('default', 'team/orders').workflow);
});

test('the length bounds keep the longest task topic name within Kafka’s 249 characters, and one more character is refused', () => {
  assert.equal(MAX_TOPIC_PREFIX_LENGTH + TASK_TOPIC_FIXED_LENGTH + MAX_NAMESPACE_LENGTH + MAX_TASK_QUEUE_LENGTH, MAX_TOPIC_NAME_LENGTH);
  const catalog = topicCatalog({ prefix: 'p'.repeat(MAX_TOPIC_PREFIX_LENGTH), shards: 1 });
  const topics = catalog.taskTopics('n'.repeat(MAX_NAMESPACE_LENGTH), 'q'.repeat(MAX_TASK_QUEUE_LENGTH));
  assert.equal(Math.max(...Object.values(topics).map((name) => name.length)), MAX_TOPIC_NAME_LENGTH);
  assert.match(namespaceProblem('n'.repeat(MAX_NAMESPACE_LENGTH + 1)) ?? '', /is 65 characters long; at most 64 are allowed/);
  assert.match(taskQueueProblem('q'.repeat(MAX_TASK_QUEUE_LENGTH + 1)) ?? '', /is 129 characters long; at most 128 are allowed/);
  assert.match(topicPrefixProblem('p'.repeat(MAX_TOPIC_PREFIX_LENGTH + 1)) ?? '', /at most 40 are allowed/);
  assert.throws(() => topicCatalog({ prefix: 'p'.repeat(MAX_TOPIC_PREFIX_LENGTH + 1), shards: 1 }), RangeError);
});

test('the topic catalog refuses a bad namespace or task queue with the shared rule’s message', () => {
  const catalog = topicCatalog({ shards: 1 });
  assert.throws(() => catalog.taskTopics('a.b', 'q'), { name: 'RangeError', message: "namespace 'a.b' may contain only letters, digits, '_' and '-' (it is part of a topic name)" });
  assert.throws(() => catalog.taskTopics('ns', '../../q'), /task queue '\.\.\/\.\.\/q' may contain only/);
  assert.equal(topicPrefixProblem('acme.logbook'), null);
  assert.match(topicPrefixProblem('acme/logbook') ?? '', /may contain only letters, digits, '\.', '_' and '-'/);
});

test('a whole topic name takes Kafka\'s characters and length, and refuses the dot segments, empty and non-string values', () => {
  assert.equal(topicNameProblem('shop.orders_v2-eu', 'sourceTopic'), null);
  assert.equal(topicNameProblem('t'.repeat(MAX_TOPIC_NAME_LENGTH), 'sourceTopic'), null);
  assert.match(topicNameProblem('t'.repeat(MAX_TOPIC_NAME_LENGTH + 1), 'sourceTopic') ?? '', /is not a Kafka topic name \(1–249/);
  for (const bad of ['.', '..', 'a b', 'orders/eu', 'ünï']) assert.match(topicNameProblem(bad, 'sourceTopic') ?? '', /^sourceTopic '.*' is not a Kafka topic name/);
  assert.equal(topicNameProblem('', 'sourceTopic'), 'sourceTopic must be a non-empty topic name');
  assert.equal(topicNameProblem(7, 'sourceTopic'), 'sourceTopic must be a non-empty topic name');
});

test('an identifier is non-empty, at most 1000 bytes of UTF-8, free of control characters and valid Unicode', () => {
  assert.equal(identifierProblem('order-42/eu · ünïcode ✓ 🚚', 'workflowId'), null);
  assert.equal(identifierProblem('', 'workflowId'), 'workflowId must be a non-empty string');
  assert.equal(identifierProblem(null, 'runId'), 'runId must be a non-empty string');
  assert.equal(identifierProblem('x'.repeat(MAX_IDENTIFIER_BYTES), 'workflowId'), null);
  // 334 three-byte characters are 1002 bytes, though only 334 UTF-16 units.
  assert.match(identifierProblem('€'.repeat(334), 'workflowType') ?? '', /^workflowType '.*' is 1002 bytes long \(UTF-8\); at most 1000 are allowed$/);
  assert.equal(identifierProblem('a\nb', 'signalName'), "signalName 'a\\nb' contains the control character U+000A at index 1; control characters are not allowed");
  assert.match(identifierProblem('a\u0085', 'requestId') ?? '', /control character U\+0085/);
  assert.match(identifierProblem('a\uD800b', 'workflowId') ?? '', /unpaired surrogate at index 1; it must be valid Unicode/);
});

test("a workflow or update id may not be a dot segment, which URL parsers drop; other names may", () => {
  assert.equal(identifierProblem('..', 'workflowId'), "workflowId may not be '.' or '..': URL paths cannot carry them");
  assert.equal(identifierProblem('.', 'updateId'), "updateId may not be '.' or '..': URL paths cannot carry them");
  assert.equal(identifierProblem('.', 'signalName'), null);
  assert.equal(identifierProblem('...', 'workflowId'), null);
});

test('the UTF-8 length is counted per code point as the encoder counts it', () => {
  for (const value of ['', 'abc', 'ü', '€', '🚚', 'a€🚚ü', '\uD800']) assert.equal(utf8Length(value), Buffer.byteLength(value, 'utf8'), value);
});

test('a long value is cut in the message, so a message stays readable', () => {
  const message = namespaceProblem(`${'x'.repeat(500)}.`) ?? '';
  assert.ok(message.length < 200, message);
  assert.match(message, /x…' may contain only/);
});
