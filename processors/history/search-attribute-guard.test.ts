import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { defaultHistoryConfig, type HistoryConfig } from './config.js';
import { SEARCH_ATTRIBUTE_REFUSED } from './search-attribute-guard.js';
import { HistoryDriver, json } from './test-kit.js';

const refusing: HistoryConfig = {
  ...defaultHistoryConfig, namespaceGuards: { default: { codecRequiredTaskQueues: [], refusedSearchAttributes: ['CustomerEmail'] } },
};
const email = { CustomerEmail: { type: 'Keyword', value: 'ada@example.com' } } as const;
const lastTaskFailure = (d: HistoryDriver) => (d.events.filter((e): e is HistoryEvent<'WorkflowTaskFailed'> => e.attributes.type === 'WorkflowTaskFailed').at(-1))?.attributes;

describe('refused search attributes', () => {
  it('refuse a start that sets one with SearchAttributeRefused naming the attribute and the rule, and nothing is written', () => {
    const d = new HistoryDriver(refusing);
    const refused = d.start({ searchAttributes: { ...email } }, { replyTo: 'r' });
    assert.equal(refused.rejection?.code, SEARCH_ATTRIBUTE_REFUSED);
    assert.match(refused.rejection!.message, /search attribute CustomerEmail is refused by namespace default \(refusedSearchAttributes\): search attributes are stored in plain text/);
    assert.equal(refused.replies[0]?.failure?.code, SEARCH_ATTRIBUTE_REFUSED);
    assert.equal(d.events.length, 0);
  });

  it('compare names without regard to case, and let other attributes and namespaces through', () => {
    assert.equal(new HistoryDriver(refusing).start({ searchAttributes: { customeremail: { type: 'Text', value: 'x' } } }).rejection?.code, SEARCH_ATTRIBUTE_REFUSED);
    assert.equal(new HistoryDriver(refusing).start({ searchAttributes: { Tier: { type: 'Keyword', value: 'gold' } } }).rejection, null);
    assert.equal(new HistoryDriver(defaultHistoryConfig).start({ searchAttributes: { ...email } }).rejection, null);
  });

  it('fail the workflow task of an upsert that sets one with BadSearchAttributes; the run goes on and a fixed upsert is applied', () => {
    const d = new HistoryDriver(refusing);
    d.start();
    d.completeWorkflowTask([{ type: 'UpsertWorkflowSearchAttributes', searchAttributes: { ...email } }]);
    const failed = lastTaskFailure(d);
    assert.equal(failed?.cause, 'BadSearchAttributes');
    assert.equal(failed?.failure?.code, SEARCH_ATTRIBUTE_REFUSED);
    assert.match(failed?.failure?.message ?? '', /UpsertWorkflowSearchAttributes command: search attribute CustomerEmail is refused/);
    assert.deepEqual(d.state?.searchAttributes, {});
    d.advance(60_000);
    d.completeWorkflowTask([{ type: 'UpsertWorkflowSearchAttributes', searchAttributes: { Tier: { type: 'Keyword', value: 'gold' } } }]);
    assert.deepEqual(d.state?.searchAttributes, { Tier: { type: 'Keyword', value: 'gold' } });
  });

  it('fail the task of a continue-as-new or child start that sets one, and let an upsert remove one', () => {
    const d = new HistoryDriver(refusing);
    d.start();
    d.completeWorkflowTask([{
      type: 'ContinueAsNewWorkflowExecution', workflowType: 'order', taskQueue: null, input: [json(1)], workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null,
      backoffStartIntervalMs: null, retryPolicy: null, header: {}, memo: null, searchAttributes: { ...email },
    }]);
    assert.equal(lastTaskFailure(d)?.failure?.code, SEARCH_ATTRIBUTE_REFUSED);
    d.advance(60_000);
    d.completeWorkflowTask([{ type: 'UpsertWorkflowSearchAttributes', searchAttributes: { CustomerEmail: { type: 'KeywordList', value: [] } } }]);
    assert.equal(d.types().filter((t) => t === 'UpsertWorkflowSearchAttributes').length, 1, 'a removal takes data out: it passes');
  });
});
