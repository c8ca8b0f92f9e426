import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultDataConverter } from '../../topics/payload/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { workflowOutcomes, type OfferedWorkflow } from './workflow-outcomes.js';

const converter = defaultDataConverter;

function run(workflowId: string, closing?: { type: string; result?: unknown }, runId = `${workflowId}-run`): HistoryEvent[] {
  const base = { namespace: 'default', workflowId, runId, workflowType: 'chaosSteps', taskQueue: 'chaos', eventTime: 1 };
  const events = [
    { ...base, eventId: 1, attributes: { type: 'WorkflowExecutionStarted' } },
    { ...base, eventId: 2, attributes: { type: 'ActivityTaskScheduled', activityId: '1' } },
    { ...base, eventId: 3, attributes: { type: 'ActivityTaskCompleted', scheduledEventId: 2, result: converter.toPayload('p'), identity: 'w' } },
  ];
  if (closing) events.push({ ...base, eventId: 4, attributes: { type: closing.type, ...(closing.result === undefined ? {} : { result: converter.toPayload(closing.result) }) } as never });
  return events as unknown as HistoryEvent[];
}

const offered = (workflowId: string, inKafka = true, confirmed = true): OfferedWorkflow => ({ workflowId, inKafka, confirmed });
const runsOf = (...histories: HistoryEvent[][]) => new Map(histories.map((h) => [`default/${h[0]!.workflowId}/${h[0]!.runId}`, h]));

test('a workflow completed with its result counts as completed and goes to the execution audit with decoded payloads', () => {
  const { figures, problems, audited } = workflowOutcomes([offered('a')], runsOf(run('a', { type: 'WorkflowExecutionCompleted', result: 'p' })), 'default', 'p', converter);
  assert.deepEqual(figures, { offered: 1, notOffered: 0, startsConfirmed: 1, started: 1, completed: 1, lost: 0, stuck: 0, closedWrongly: 0 });
  assert.deepEqual(problems, []);
  assert.equal(audited[0]?.events?.[2]?.attributes.result, 'p');
  assert.equal(audited[0]?.events?.[3]?.attributes.result, 'p');
});

test('a start in Kafka without any event is lost; a run that never closed is stuck; another close or result is wrong', () => {
  const runs = runsOf(run('stuck'), run('failed', { type: 'WorkflowExecutionFailed' }), run('wrong', { type: 'WorkflowExecutionCompleted', result: 'q' }));
  const { figures, problems } = workflowOutcomes([offered('lost'), offered('stuck'), offered('failed'), offered('wrong')], runs, 'default', 'p', converter);
  assert.deepEqual([figures.lost, figures.stuck, figures.closedWrongly, figures.completed, figures.started], [1, 1, 2, 0, 3]);
  assert.deepEqual(problems.map((p) => `${p.workflowId}: ${p.problem}`), ['lost: lost', 'stuck: stuck', 'failed: closed wrongly', 'wrong: closed wrongly']);
  assert.match(problems[1]!.detail, /ends at event 3 \(ActivityTaskCompleted\)/);
  assert.deepEqual(workflowOutcomes([offered('stuck')], runs, 'default', 'p', converter).stuck, [{ workflowId: 'stuck', runId: 'stuck-run', lastEventId: 3, lastType: 'ActivityTaskCompleted', lastEventTime: 1, signalled: false }]);
});

test('a start that never reached Kafka is not offered and not lost; runs of other namespaces are ignored; two runs are reported', () => {
  const other = run('b', { type: 'WorkflowExecutionCompleted', result: 'p' }).map((e) => ({ ...e, namespace: 'fuzz' }));
  const runs = runsOf(run('a', { type: 'WorkflowExecutionCompleted', result: 'p' }), run('a', { type: 'WorkflowExecutionCompleted', result: 'p' }, 'second'), other);
  const { figures, problems } = workflowOutcomes([offered('a'), offered('b', false, false)], runs, 'default', 'p', converter);
  assert.deepEqual([figures.offered, figures.notOffered, figures.lost, figures.completed], [1, 1, 0, 1]);
  assert.deepEqual(problems.map((p) => p.problem), ['several runs']);
});
