/**
 * Regenerates the golden fixtures. Run by hand, never by tests:
 *
 *   node --import tsx topics/schemas/write-fixtures.ts [--overwrite]
 *
 * Golden bytes must never change once committed (they prove old records still decode), so an
 * existing fixture whose content would differ is reported and left alone unless `--overwrite`
 * is given — which is only right for a version that was never released.
 * @module
 */
import { deepStrictEqual } from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { recordCodecs } from '../serde/record-codecs.js';
import { frameSingleObject } from '../serde/wire-format.js';
import { activityControlCases } from './activity-control/v1-fixture-cases.js';
import { activityTaskCases } from './activity-task/v1-fixture-cases.js';
import { auditRecordCases } from './audit-record/v1-fixture-cases.js';
import { clientCommandCases } from './command/v1-fixture-cases-clients.js';
import { taskCommandCases } from './command/v1-fixture-cases-tasks.js';
import { commandV2Cases } from './command/v2-fixture-cases.js';
import { fixtureFile } from './fixture-files.js';
import { toFixtureJson } from './fixture-json.js';
import type { FixtureCase } from './fixture-samples.js';
import { lifecycleEventCases } from './history-event/v1-fixture-cases-lifecycle.js';
import { messageEventCases } from './history-event/v1-fixture-cases-messages.js';
import { mutableStateSnapshotCases } from './mutable-state-snapshot/v1-fixture-cases.js';
import { mutableStateSnapshotV2Cases } from './mutable-state-snapshot/v2-fixture-cases.js';
import { mutableStateSnapshotV3Cases } from './mutable-state-snapshot/v3-fixture-cases.js';
import { namespaceCases } from './namespace/v1-fixture-cases.js';
import { namespaceV2Cases } from './namespace/v2-fixture-cases.js';
import { namespaceV3Cases } from './namespace/v3-fixture-cases.js';
import { mutableStateSnapshotV4Cases } from './mutable-state-snapshot/v4-fixture-cases.js';
import { mutableStateSnapshotV5Cases } from './mutable-state-snapshot/v5-fixture-cases.js';
import { queryTaskCases } from './query-task/v1-fixture-cases.js';
import { replyCases, replyV2Cases } from './reply/v1-fixture-cases.js';
import type { RecordName } from './schema-catalog.js';
import { shardPositionsCases } from './shard-positions/v1-fixture-cases.js';
import { visibilityRowV1Cases, visibilityRowV2Cases } from './visibility-row/fixture-cases.js';
import { workflowTaskCases } from './workflow-task/v1-fixture-cases.js';
import { workflowTaskV2Cases } from './workflow-task/v2-fixture-cases.js';

const plan: readonly [RecordName, number, readonly FixtureCase<unknown>[]][] = [
  ['HistoryEvent', 1, [...lifecycleEventCases, ...messageEventCases]],
  ['Command', 1, [...clientCommandCases, ...taskCommandCases]],
  ['Command', 2, commandV2Cases],
  ['MutableStateSnapshot', 1, mutableStateSnapshotCases],
  ['MutableStateSnapshot', 2, mutableStateSnapshotV2Cases],
  ['MutableStateSnapshot', 3, mutableStateSnapshotV3Cases],
  ['MutableStateSnapshot', 4, mutableStateSnapshotV4Cases],
  ['MutableStateSnapshot', 5, mutableStateSnapshotV5Cases],
  ['ShardPositions', 1, shardPositionsCases],
  ['WorkflowTask', 1, workflowTaskCases],
  ['WorkflowTask', 2, workflowTaskV2Cases],
  ['ActivityTask', 1, activityTaskCases],
  ['ActivityControl', 1, activityControlCases],
  ['VisibilityRow', 1, visibilityRowV1Cases],
  ['VisibilityRow', 2, visibilityRowV2Cases],
  ['Reply', 1, replyCases],
  ['Reply', 2, replyV2Cases],
  ['QueryTask', 1, queryTaskCases],
  ['Namespace', 1, namespaceCases],
  ['Namespace', 2, namespaceV2Cases],
  ['Namespace', 3, namespaceV3Cases],
  ['AuditRecord', 1, auditRecordCases],
];

const overwrite = process.argv.includes('--overwrite');
let written = 0;
let unchanged = 0;
const refused: string[] = [];

for (const [record, version, cases] of plan) {
  const codec = recordCodecs[record];
  const { fingerprint } = codec.version(version);
  for (const { name, value } of cases) {
    const body = codec.encodeBodyAs(version, value);
    const decoded = codec.decodeBodyAs(version, body);
    // The JSON is written from the decoded value, so it is exactly what a reader gets back.
    deepStrictEqual(decoded, value, `${record} v${version} ${name} does not round-trip`);
    const file = fixtureFile(record, version, name);
    const json = toFixtureJson(decoded);
    const bin = frameSingleObject(fingerprint, body);
    if (existsSync(file.binPath) && existsSync(file.jsonPath)) {
      const same = readFileSync(file.binPath).equals(bin) && readFileSync(file.jsonPath, 'utf8') === json;
      if (same) {
        unchanged++;
        continue;
      }
      if (!overwrite) {
        refused.push(file.jsonPath);
        continue;
      }
    }
    mkdirSync(dirname(file.jsonPath), { recursive: true });
    writeFileSync(file.jsonPath, json);
    writeFileSync(file.binPath, bin);
    written++;
  }
}

console.log(`fixtures: ${written} written, ${unchanged} unchanged`);
if (refused.length > 0) {
  console.error(`refused to change ${refused.length} existing fixtures (pass --overwrite only for unreleased versions):`);
  for (const path of refused) console.error(`  ${path}`);
  process.exitCode = 1;
}
