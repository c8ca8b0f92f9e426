import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IllegalShardTransitionError, ShardLifecycle, ShardState, type ShardTransition } from './shard-lifecycle.js';

const lifecycle = (moves: ShardTransition[] = []) => new ShardLifecycle(3, 7, () => 1_000, (t) => moves.push(t));

test('a shard goes CREATED → RESTORING → RUNNING ⇄ SUSPENDED → CLOSED, each move reported with its generation and reason', () => {
  const moves: ShardTransition[] = [];
  const shard = lifecycle(moves);
  shard.move(ShardState.Restoring, 7, 'fenced');
  shard.move(ShardState.Running, 7, 'restored');
  shard.move(ShardState.Suspended, 7, 'rebalance');
  shard.move(ShardState.Running, 8, 'kept');
  shard.move(ShardState.Closed, 8, 'revoked');
  assert.deepEqual(moves.map((m) => `${m.from}>${m.to}@${m.generation}`), ['CREATED>RESTORING@7', 'RESTORING>RUNNING@7', 'RUNNING>SUSPENDED@7', 'SUSPENDED>RUNNING@8', 'RUNNING>CLOSED@8']);
  assert.equal(shard.generation, 8);
});

test('a corrupted shard may be re-fenced and restored; a migrated one may only close; a closed one goes nowhere', () => {
  const shard = lifecycle();
  shard.move(ShardState.Restoring, 7, 'fenced');
  shard.move(ShardState.Running, 7, 'restored');
  shard.move(ShardState.Corrupted, 7, 'commit failed');
  shard.move(ShardState.Corrupted, 7, 're-fence failed');
  shard.move(ShardState.Restoring, 7, 're-fenced');
  shard.move(ShardState.Migrated, 7, 'fenced while assigned');
  assert.throws(() => shard.move(ShardState.Restoring, 7, 'again'), IllegalShardTransitionError);
  shard.move(ShardState.Closed, 7, 'rejoining');
  for (const to of Object.values(ShardState)) assert.throws(() => shard.move(to, 7, 'after close'), IllegalShardTransitionError);
});

test('a move tagged with an older generation than the shard is held under is refused, so stale work cannot act on the current assignment', () => {
  const shard = lifecycle();
  shard.move(ShardState.Restoring, 7, 'fenced');
  shard.move(ShardState.Running, 7, 'restored');
  shard.retag(9);
  assert.throws(() => shard.move(ShardState.Corrupted, 8, 'a failure seen under generation 8'), /stale/);
  assert.equal(shard.state, ShardState.Running);
});

test('RUNNING cannot go back to RESTORING without being corrupted first', () => {
  const shard = lifecycle();
  shard.move(ShardState.Restoring, 7, 'fenced');
  shard.move(ShardState.Running, 7, 'restored');
  assert.throws(() => shard.move(ShardState.Restoring, 7, 'restore again'), IllegalShardTransitionError);
});
