import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { CommitOutcomeUnknownError, FencedError } from '../../topics/errors.js';
import { ShardState, type ShardTransition } from '../../processors/shard-runtime/shard-lifecycle.js';
import { withInjectedFaults } from '../support/faulty-log.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

const order = (id: string) => ({ orderId: id, sku: 'book', quantity: 1, amountCents: 100, phone: '+1', packTimeout: '1h', ratingDelay: '10ms' });

/** Faults a test switches on for shard 0's transactional id. */
class ShardZeroFaults {
  nextRefusal: Error | undefined;
  private held: { promise: Promise<void>; release: () => void } | undefined;

  /** From now on, opening shard 0's producer waits until {@link release}. */
  hold(): void {
    let release!: () => void;
    const promise = new Promise<void>((r) => (release = r));
    this.held = { promise, release };
  }

  release(): void {
    this.held?.release();
    this.held = undefined;
  }

  plan(prefix: string) {
    const id = `${prefix}-history-0`;
    return {
      refuseCommit: (tid: string) => {
        if (tid !== id || !this.nextRefusal) return undefined;
        const error = this.nextRefusal;
        this.nextRefusal = undefined;
        return error;
      },
      holdInitialisation: (tid: string) => (tid === id ? this.held?.promise : undefined),
    };
  }
}

/** A workflow id on shard 0. */
function onShardZero(t: TestEngine, base: string): string {
  for (let i = 0; ; i++) if (t.engine.catalog.shardOf('default', `${base}-${i}`) === 0) return `${base}-${i}`;
}

/**
 * The shard lifecycle seen from outside: readiness follows it, a corrupted shard is re-fenced
 * and restored while still assigned, and a shard fenced while this node holds it closes as
 * MIGRATED, the node rejoins its group and serves the shard again.
 */
export function shardLifecycleConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  const faults = new ShardZeroFaults();
  const transitions: ShardTransition[] = [];
  const prefix = uniqueName('lifecycle').replaceAll('-', '_');
  const readyz = async () => {
    const res = await fetch(`${addressOf(server)}/readyz`);
    return { status: res.status, body: (await res.json()) as { reasons: string[] } };
  };
  before(async () => {
    t = await startTestEngine(backend, {
      prefix,
      shards: 2,
      engine: { wrapLog: (log) => withInjectedFaults(log, faults.plan(prefix)), onShardTransition: (tr) => transitions.push(tr) },
    });
    server = await serveGateway(t.engine);
    await waitFor('the node to be ready', async () => (await readyz()).status === 200, 60_000);
  });
  after(async () => {
    faults.release();
    server.close();
    await t.stop();
  });

  test('/readyz answers 503 naming the shard while it is CORRUPTED, and 200 again once it runs; the input that hit the failure is applied once', async () => {
    const id = onShardZero(t, uniqueName('readyz'));
    faults.hold();
    faults.nextRefusal = new CommitOutcomeUnknownError('injected: the commit of shard 0 failed');
    const started = t.start('order', 'orders', id, [order(id)]).catch(() => undefined);
    await waitFor('shard 0 to be CORRUPTED', () => t.engine.node.shardReports().find((r) => r.shard === 0)?.state === ShardState.Corrupted);
    const down = await readyz();
    assert.equal(down.status, 503);
    assert.ok(down.body.reasons.some((r) => r.startsWith('shard 0 is CORRUPTED')), down.body.reasons.join('; '));
    faults.release();
    await waitFor('the node to be ready again', async () => (await readyz()).status === 200, 60_000);
    await started;
    await t.signal(id, 'sellerPacked', [{ parcelId: id }]);
    assert.equal((await t.result(id, 60_000)).executionStatus, 'Completed');
    const runId = (await t.engine.describe('default', id))!.executionInfo.runId;
    const events = await t.history(id, runId);
    assert.equal(events.filter((e) => e.attributes.type === 'WorkflowExecutionStarted').length, 1, 'one run, started once');
    events.forEach((e, i) => assert.equal(e.eventId, i + 1));
    const shard0 = transitions.filter((m) => m.shard === 0).map((m) => m.to);
    assert.deepEqual(shard0.slice(-3), [ShardState.Corrupted, ShardState.Restoring, ShardState.Running]);
  });

  test('a shard fenced while this node still holds it closes as MIGRATED; the node rejoins its group and serves it again', async () => {
    const id = onShardZero(t, uniqueName('migrated'));
    const before = transitions.length;
    faults.nextRefusal = new FencedError('injected: another producer initialised the transactional id of shard 0');
    const started = t.start('order', 'orders', id, [order(id)]).catch(() => undefined);
    await waitFor('shard 0 to be served again after the rejoin', () => {
      const moves = transitions.slice(before).filter((m) => m.shard === 0).map((m) => m.to);
      return moves.includes(ShardState.Migrated) && moves.at(-1) === ShardState.Running;
    }, 60_000);
    const moves = transitions.slice(before).filter((m) => m.shard === 0).map((m) => m.to);
    assert.deepEqual(moves.slice(0, 2), [ShardState.Migrated, ShardState.Closed]);
    await waitFor('the node to be ready again', async () => (await readyz()).status === 200, 60_000);
    await started;
    await t.signal(id, 'sellerPacked', [{ parcelId: id }]);
    assert.equal((await t.result(id, 60_000)).executionStatus, 'Completed');
  });
}
