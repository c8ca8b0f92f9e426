import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CommitOutcomeUnknownError, FencedError, RetriableLogError } from '../../topics/errors.js';
import type { LogRecord } from '../../topics/log/log.js';
import { SuspectInputs } from './suspect-inputs.js';

const record = (offset: number): LogRecord => ({ topic: 'c', partition: 0, offset, key: null, value: null, headers: {}, timestamp: 0 });

test('an input in a failed batch is suspected once; failing again on its own it is quarantined with the reason; the innocent ones are cleared as they commit', () => {
  const suspects = new SuspectInputs();
  const batch = [record(1), record(2), record(3)];
  suspects.onBatchFailed(batch, new Error('broker refused a record: MESSAGE_TOO_LARGE'));
  assert.equal(suspects.careful, true);
  assert.equal(suspects.quarantined(record(2)), undefined, 'one failure is not enough');
  suspects.onCommitted([record(1)]);
  suspects.onBatchFailed([record(2)], new Error('broker refused a record: MESSAGE_TOO_LARGE'));
  assert.match(suspects.quarantined(record(2))!.reason, /MESSAGE_TOO_LARGE/);
  suspects.onCommitted([record(2), record(3)]);
  assert.equal(suspects.careful, false);
});

test('fencing and retriable failures (an outage) never count against inputs', () => {
  const suspects = new SuspectInputs();
  for (let i = 0; i < 3; i++) {
    suspects.onBatchFailed([record(1)], new FencedError('fenced'));
    suspects.onBatchFailed([record(1)], new RetriableLogError('broker down'));
    suspects.onBatchFailed([record(1)], Object.assign(new CommitOutcomeUnknownError('timeout'), { retriable: true }));
  }
  assert.equal(suspects.careful, false);
  assert.equal(suspects.quarantined(record(1)), undefined);
});

test('after a restore, suspects before the restored positions were committed by some owner and are dropped', () => {
  const suspects = new SuspectInputs();
  suspects.onBatchFailed([record(4), record(9)], new Error('bug'));
  suspects.onRestored({ c: 5 });
  suspects.onBatchFailed([record(4)], new Error('bug'));
  assert.equal(suspects.quarantined(record(4)), undefined, 'offset 4 counts afresh after the restore');
  assert.equal(suspects.careful, true, 'offset 9 is still suspect');
});
