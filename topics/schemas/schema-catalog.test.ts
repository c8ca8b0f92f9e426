import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAvroType } from '../serde/avro-type.js';
import { schemaFingerprint } from '../serde/schema-fingerprint.js';
import { field, record, type AvroRecordSchema, type AvroSchema } from './avro-schema.js';
import { CommandType, commandSchemaV2 } from './command/index.js';
import { WorkflowCommandType, workflowCommandSchemas } from './command/v1-workflow-commands.js';
import { payloadSchema } from './common/v1-records.js';
import { defineSchema } from './define-schema.js';
import { HistoryEventType, historyEventSchemaV1 } from './history-event/index.js';
import { schemaCatalog } from './schema-catalog.js';
import { unionBranchTag } from './union-branch-naming.js';

function unionTags(schema: AvroRecordSchema, fieldName: string): string[] {
  const union = schema.fields.find((f) => f.name === fieldName)?.type as readonly AvroSchema[];
  return union.map((branch) => {
    const name = typeof branch === 'string' ? branch : (branch as { name: string }).name;
    return unionBranchTag(name) ?? `<untagged ${name}>`;
  });
}

describe('schema catalog', () => {
  it('names every record logbook.<Record> and numbers its versions 1, 2, …', () => {
    for (const [name, schemas] of Object.entries(schemaCatalog)) {
      assert.equal(schemas.fullName, `logbook.${name}`);
      assert.deepEqual(schemas.versions.map((v) => v.version), schemas.versions.map((_, i) => i + 1));
    }
  });

  it('parses every version and gives each a distinct fingerprint', () => {
    const seen = new Map<bigint, string>();
    for (const schemas of Object.values(schemaCatalog)) {
      for (const { version, schema } of schemas.versions) {
        parseAvroType(schema);
        const label = `${schemas.record} v${version}`;
        const fp = schemaFingerprint(schema);
        assert.equal(seen.get(fp), undefined, `${label} has the fingerprint of ${seen.get(fp)}`);
        seen.set(fp, label);
      }
    }
  });

  it('keeps HistoryEventType in step with the attributes union', () => {
    assert.deepEqual(unionTags(historyEventSchemaV1, 'attributes'), Object.keys(HistoryEventType));
  });

  it('keeps CommandType in step with the command body union', () => {
    assert.deepEqual(unionTags(commandSchemaV2, 'body'), Object.keys(CommandType));
  });

  it('keeps WorkflowCommandType in step with the workflow command union', () => {
    const tags = workflowCommandSchemas.map((s) => unionBranchTag(s.name));
    assert.deepEqual(tags, Object.keys(WorkflowCommandType));
  });
});

describe('defineSchema', () => {
  it('writes a repeated named type out once and then refers to it by name', () => {
    const schema = defineSchema(record('logbook.T', [field('a', payloadSchema), field('b', payloadSchema)]));
    assert.equal(typeof schema.fields[0]?.type, 'object');
    assert.equal(schema.fields[1]?.type, 'logbook.Payload');
    assert.ok(Object.isFrozen(schema.fields[0]));
  });

  it('refuses two different definitions under one name', () => {
    const other = record('logbook.Payload', [field('data', 'string')]);
    assert.throws(() => defineSchema(record('logbook.T', [field('a', payloadSchema), field('b', other)])), /two different/);
  });

  it('refuses names without a namespace', () => {
    assert.throws(() => defineSchema(record('T', [])), /fully qualified/);
  });
});

describe('unionBranchTag', () => {
  it('strips the naming suffix of a union branch record', () => {
    assert.equal(unionBranchTag('logbook.TimerFiredEventAttributes'), 'TimerFired');
    assert.equal(unionBranchTag('logbook.UpsertWorkflowSearchAttributesCommandAttributes'), 'UpsertWorkflowSearchAttributes');
    assert.equal(unionBranchTag('logbook.KeywordListSearchAttribute'), 'KeywordList');
    assert.equal(unionBranchTag('logbook.StartWorkflowExecutionRequest'), 'StartWorkflowExecution');
    assert.equal(unionBranchTag('logbook.Payload'), undefined);
  });
});
