import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { VisibilityRow } from '../../topics/schemas/visibility-row/index.js';
import { compileQuery, decodePageToken, InvalidQueryError, pageOf, parseQuery } from './index.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function row(workflowId: string, overrides: Partial<VisibilityRow> = {}): VisibilityRow {
  return {
    namespace: 'default', workflowId, runId: `${workflowId}-run`, workflowType: 'order', taskQueue: 'orders', status: 'Running',
    startTime: T0, closeTime: null, executionTime: T0, historyLength: 3, memo: {}, searchAttributes: {}, historySizeBytes: 100,
    ...overrides,
  };
}

const rows: VisibilityRow[] = [
  row('a', { searchAttributes: { CustomerTier: { type: 'Keyword', value: 'gold' }, Amount: { type: 'Int', value: 120 } } }),
  row('b', { status: 'Completed', closeTime: T0 + 5_000, startTime: T0 + 1_000, searchAttributes: { CustomerTier: { type: 'Keyword', value: 'silver' }, Amount: { type: 'Int', value: 40 } } }),
  row('c', { workflowType: 'travel', startTime: T0 + 2_000, searchAttributes: { CustomerTier: { type: 'Keyword', value: 'gold' }, Vip: { type: 'Bool', value: true }, Note: { type: 'Text', value: 'Fragile Parcel inside' } } }),
  row('d', { workflowType: 'travel', status: 'Failed', closeTime: T0 + 9_000, startTime: T0 + 3_000, searchAttributes: { Tags: { type: 'KeywordList', value: ['eu', 'express'] }, Score: { type: 'Double', value: 0.5 }, Due: { type: 'Datetime', value: T0 + 86_400_000 } } }),
];

const ids = (query: string): string[] => rows.filter(compileQuery(query)).map((r) => r.workflowId).sort();
const problem = (query: string): string => {
  try {
    rows.filter(compileQuery(query));
  } catch (error) {
    assert.ok(error instanceof InvalidQueryError, `expected InvalidQueryError, got ${String(error)}`);
    return error.message;
  }
  assert.fail(`query was accepted: ${query}`);
};

describe('visibility filter language: matching', () => {
  test('a blank query matches every row', () => {
    assert.deepEqual(ids('  '), ['a', 'b', 'c', 'd']);
  });

  test('the issue example combines type, status, a custom keyword and a datetime comparison', () => {
    assert.deepEqual(ids(`WorkflowType = 'order' AND ExecutionStatus = 'Running' AND CustomerTier = 'gold' AND StartTime > '2025-12-31T23:59:59Z'`), ['a']);
    assert.deepEqual(ids(`WorkflowType = 'order' AND StartTime > '2026-01-01T00:00:00Z'`), ['b']);
  });

  test('every comparison operator on system attributes, double quotes and <> as !=', () => {
    assert.deepEqual(ids(`WorkflowType != "order"`), ['c', 'd']);
    assert.deepEqual(ids(`WorkflowType <> 'order'`), ['c', 'd']);
    assert.deepEqual(ids(`StartTime >= '2026-01-01T00:00:02Z'`), ['c', 'd']);
    assert.deepEqual(ids(`StartTime < '2026-01-01T00:00:01Z'`), ['a']);
    assert.deepEqual(ids(`StartTime <= '2026-01-01T01:00:01+01:00'`), ['a', 'b']);
    assert.deepEqual(ids(`HistoryLength = 3 AND RunId = 'c-run' AND TaskQueue = 'orders' AND WorkflowId = 'c'`), ['c']);
  });

  test('AND binds tighter than OR; parentheses and NOT change the grouping', () => {
    assert.deepEqual(ids(`WorkflowType = 'travel' OR WorkflowType = 'order' AND ExecutionStatus = 'Completed'`), ['b', 'c', 'd']);
    assert.deepEqual(ids(`(WorkflowType = 'travel' OR WorkflowType = 'order') AND ExecutionStatus = 'Completed'`), ['b']);
    assert.deepEqual(ids(`NOT WorkflowType = 'travel' AND ExecutionStatus = 'Running'`), ['a']);
    assert.deepEqual(ids(`NOT (WorkflowType = 'travel' AND ExecutionStatus = 'Running')`), ['a', 'b', 'd']);
    assert.deepEqual(ids(`WorkflowType = 'x' or not WorkflowId in ('b', 'c', 'd')`), ['a'], 'keywords in any case');
  });

  test('IN, NOT IN, BETWEEN, NOT BETWEEN, IS NULL, IS NOT NULL, STARTS_WITH', () => {
    assert.deepEqual(ids(`ExecutionStatus IN ('Completed', 'Failed')`), ['b', 'd']);
    assert.deepEqual(ids(`ExecutionStatus NOT IN ('Completed', 'Failed')`), ['a', 'c']);
    assert.deepEqual(ids(`StartTime BETWEEN '2026-01-01T00:00:01Z' AND '2026-01-01T00:00:02Z'`), ['b', 'c']);
    assert.deepEqual(ids(`Amount NOT BETWEEN 50 AND 200`), ['b']);
    assert.deepEqual(ids(`CloseTime IS NULL`), ['a', 'c']);
    assert.deepEqual(ids(`CloseTime IS NOT NULL AND CloseTime > '2026-01-01T00:00:06Z'`), ['d']);
    assert.deepEqual(ids(`CustomerTier IS NULL`), ['d']);
    assert.deepEqual(ids(`WorkflowId STARTS_WITH 'c' OR CustomerTier STARTS_WITH 'sil'`), ['b', 'c']);
  });

  test('custom attributes of every type, typed by the stored value; a run without the attribute matches no comparison', () => {
    assert.deepEqual(ids(`CustomerTier = 'gold'`), ['a', 'c']);
    assert.deepEqual(ids(`CustomerTier != 'gold'`), ['b'], 'd has no tier: neither = nor != matches it');
    assert.deepEqual(ids(`Amount > 100`), ['a']);
    assert.deepEqual(ids(`Score >= 0.25 AND Score < 1e0`), ['d']);
    assert.deepEqual(ids(`Vip = true`), ['c']);
    assert.deepEqual(ids(`Vip = FALSE`), []);
    assert.deepEqual(ids(`Note = 'fragile parcel'`), ['c'], 'Text matches a phrase it contains, ignoring case');
    assert.deepEqual(ids(`Tags = 'express'`), ['d'], 'KeywordList = means contains');
    assert.deepEqual(ids(`Tags IN ('us', 'eu')`), ['d']);
    assert.deepEqual(ids(`Due > '2026-01-01T12:00:00Z'`), ['d']);
    assert.deepEqual(ids(`NeverSet = 'x'`), [], 'an attribute no run has matches nothing');
  });
});

describe('visibility filter language: errors name the problem and where', () => {
  test('syntax errors name the unexpected token, its column and what was expected', () => {
    assert.equal(problem(`WorkflowType = 'order' AN ExecutionStatus = 'Running'`), "unexpected token 'AN' at column 24; expected AND, OR or end of query");
    assert.equal(problem(`WorkflowType = `), 'unexpected end of query at column 16; expected a value (a quoted string, a number, true or false)');
    assert.equal(problem(`WorkflowType 'order'`), "unexpected token ''order'' at column 14; expected an operator (=, !=, >, >=, <, <=, IN, BETWEEN, IS, STARTS_WITH) after 'WorkflowType'");
    assert.equal(problem(`(WorkflowType = 'order'`), "unexpected end of query at column 24; expected ')', AND or OR");
    assert.equal(problem(`AND WorkflowType = 'order'`), "unexpected token 'AND' at column 1; expected an attribute name, NOT or (");
    assert.equal(problem(`ExecutionStatus IN 'Running'`), "unexpected token ''Running'' at column 20; expected '(' opening the IN list");
    assert.equal(problem(`ExecutionStatus IN ('Running' 'Failed')`), "unexpected token ''Failed'' at column 31; expected ',' or ')' in the IN list");
    assert.equal(problem(`Amount BETWEEN 1 OR 2`), "unexpected token 'OR' at column 18; expected AND");
    assert.equal(problem(`CloseTime IS NOT 'x'`), "unexpected token ''x'' at column 18; expected NULL");
    assert.equal(problem(`Amount NOT = 1`), "unexpected token '=' at column 12; expected IN or BETWEEN");
  });

  test('lexical errors: an unterminated string, a stray character', () => {
    assert.equal(problem(`WorkflowType = 'order`), 'unterminated string starting at column 16');
    assert.equal(problem(`WorkflowType == 'order'`), "unexpected token '=' at column 15; expected a value (a quoted string, a number, true or false)");
    assert.equal(problem(`WorkflowType = 'a' ; drop`), "unexpected character ';' at column 20");
  });

  test('ORDER BY is refused with the order results come in', () => {
    assert.match(problem(`WorkflowType = 'order' ORDER BY StartTime`), /^ORDER BY at column 24 is not supported; results are ordered by StartTime, newest first$/);
  });

  test('a system attribute in the wrong case is an unknown attribute with a suggestion', () => {
    assert.equal(problem(`Workflowtype = 'order'`), "unknown attribute 'Workflowtype' at column 1; did you mean 'WorkflowType'?");
  });

  test('type errors on system attributes are found before any row is read', () => {
    assert.throws(() => compileQuery(`StartTime > 'yesterday'`), { message: `'StartTime' (Datetime) at column 1 is compared with string "yesterday" at column 13; expected an RFC 3339 datetime such as '2026-01-31T12:00:00Z'` });
    assert.throws(() => compileQuery(`WorkflowType = 3`), { message: `'WorkflowType' (Keyword) at column 1 is compared with number 3 at column 16; expected a quoted string` });
    assert.throws(() => compileQuery(`WorkflowType > 'a'`), { message: `operator > is not supported on 'WorkflowType' (Keyword) at column 1` });
    assert.throws(() => compileQuery(`HistoryLength STARTS_WITH '1'`), { message: `operator STARTS_WITH is not supported on 'HistoryLength' (Int) at column 1` });
    assert.throws(() => compileQuery(`ExecutionStatus = 'Runing'`), { message: `invalid ExecutionStatus 'Runing' at column 19; expected one of Running, Completed, Failed, Canceled, Terminated, ContinuedAsNew, TimedOut` });
  });

  test('type errors on custom attributes follow the type of the stored value', () => {
    assert.equal(problem(`CustomerTier = 5`), `'CustomerTier' (Keyword) at column 1 is compared with number 5 at column 16; expected a quoted string`);
    assert.equal(problem(`Amount = '120'`), `'Amount' (Int) at column 1 is compared with string "120" at column 10; expected a number`);
    assert.equal(problem(`Vip = 'yes'`), `'Vip' (Bool) at column 1 is compared with string "yes" at column 7; expected true or false`);
    assert.equal(problem(`Vip > true`), `operator > is not supported on 'Vip' (Bool) at column 1`);
    assert.equal(problem(`Due < 5`), `'Due' (Datetime) at column 1 is compared with number 5 at column 7; expected an RFC 3339 datetime such as '2026-01-31T12:00:00Z'`);
  });

  test('parseQuery builds AND under OR', () => {
    const tree = parseQuery(`A = 1 OR B = 2 AND C = 3`);
    assert.equal(tree?.kind, 'or');
    assert.equal(tree?.kind === 'or' && tree.right.kind, 'and');
  });
});

describe('visibility paging', () => {
  test('pages follow StartTime newest first with ties by workflow id, and return every row exactly once', () => {
    const many = Array.from({ length: 7 }, (_, i) => row(`w${i}`, { startTime: T0 + Math.floor(i / 2) * 1_000 }));
    const seen: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const page = pageOf(many.slice().reverse(), 3, token ? decodePageToken(token) : undefined);
      seen.push(...page.rows.map((r) => r.workflowId));
      token = page.nextPageToken;
      pages++;
    } while (token);
    assert.equal(pages, 3);
    assert.deepEqual(seen, ['w6', 'w4', 'w5', 'w2', 'w3', 'w0', 'w1']);
  });

  test('the last full page has no next token; a forged token is refused', () => {
    assert.equal(pageOf(rows, 4).nextPageToken, null);
    assert.throws(() => decodePageToken('not-a-token'), { message: 'invalid nextPageToken' });
  });
});

test("a backslash in a quoted value takes the next character as it is, so any value can be matched (\\' and \\\\)", () => {
  const matching = rows[0]!;
  const row = { ...matching, workflowId: `it's a "quote" \\ here` };
  assert.equal(compileQuery(`WorkflowId = 'it\\'s a "quote" \\\\ here'`)(row), true);
  assert.equal(compileQuery(`WorkflowId = 'it\\'s'`)(row), false);
  assert.throws(() => compileQuery(`WorkflowId = 'open \\'`), /unterminated string starting at column 14/);
});
