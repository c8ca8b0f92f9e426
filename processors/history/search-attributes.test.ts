import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeSearchAttributes } from '../../topics/schemas/common/search-attribute-merge.js';
import { HistoryDriver } from './test-kit.js';
import { visibilityRowOf } from './visibility.js';

describe('search attribute upserts', () => {
  it('replace the attributes they name, keep the others, and remove one given as an empty KeywordList', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([{ type: 'UpsertWorkflowSearchAttributes', searchAttributes: { Tier: { type: 'Keyword', value: 'silver' }, Coupon: { type: 'Keyword', value: 'X1' } } }], false);
    d.send('SignalWorkflowExecution', { signalName: 'go', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false });
    d.completeWorkflowTask([{ type: 'UpsertWorkflowSearchAttributes', searchAttributes: { Tier: { type: 'Keyword', value: 'gold' }, Coupon: { type: 'KeywordList', value: [] } } }], false);
    assert.deepEqual(d.state!.searchAttributes, { Tier: { type: 'Keyword', value: 'gold' } });
    assert.deepEqual(visibilityRowOf(d.state!).searchAttributes, { Tier: { type: 'Keyword', value: 'gold' } });
    // The event keeps what the workflow sent, so a replay (and a reset) applies the same removal.
    const upserts = d.events.filter((e) => e.attributes.type === 'UpsertWorkflowSearchAttributes');
    assert.deepEqual((upserts.at(-1)!.attributes as { searchAttributes: unknown }).searchAttributes, { Tier: { type: 'Keyword', value: 'gold' }, Coupon: { type: 'KeywordList', value: [] } });
  });

  it('the merge never changes its arguments, and a non-empty KeywordList is kept', () => {
    const current = { A: { type: 'Int', value: 1 } } as const;
    const merged = mergeSearchAttributes(current, { B: { type: 'KeywordList', value: ['x'] }, A: { type: 'KeywordList', value: [] } });
    assert.deepEqual(merged, { B: { type: 'KeywordList', value: ['x'] } });
    assert.deepEqual(current, { A: { type: 'Int', value: 1 } });
  });
});
