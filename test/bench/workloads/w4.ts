import type { Workload } from '../bench-context.js';
import { runRecovery } from '../recovery.js';

/** The rate W4 offers unless `--rates` is given: well below what this kind of machine keeps up with. */
const DEFAULT_RATE = 20;

/**
 * W4 (recovery): W1 load at a sustainable rate (20 workflows/s, or the first `--rates` value),
 * kill -9 of the engine process after a warm-up (20 s; 5 s with `--quick`), 40 s (25 s) more load,
 * then the audit. The run fails when a workflow was lost or completed wrongly, a completed activity
 * ran again, or throughput did not recover.
 */
export const w4Workload: Workload = {
  name: 'w4',
  description: 'recovery: W1 load, kill -9 of the engine process, time until throughput recovers, audit of every workflow',
  backends: ['kafka'],
  async run(context) {
    const { settings, log } = context;
    const rate = settings.ratesGiven ? settings.rates[0]! : DEFAULT_RATE;
    const options = { rate, warmupSeconds: settings.quick ? 5 : 20, afterKillSeconds: settings.quick ? 25 : 40, drainSeconds: settings.quick ? 30 : 60 };
    log(`W4: ${rate} workflows/s for ${options.warmupSeconds} s, kill -9 of the engine, ${options.afterKillSeconds} s more`);
    const result = await runRecovery(context, options);
    const { audit } = result;
    const failures: string[] = [];
    if (result.recoverySeconds === null) failures.push(`throughput did not recover to 90 % of ${rate}/s for 3 s in a row`);
    if (audit.problemCount > 0) failures.push(`${audit.problemCount} of ${audit.workflows} workflows lost or wrong, e.g. ${JSON.stringify(audit.problems.slice(0, 3))}`);
    if (audit.rerunsAfterCompletion.length > 0) failures.push(`${audit.rerunsAfterCompletion.length} executions of activities already recorded as completed, e.g. ${JSON.stringify(audit.rerunsAfterCompletion.slice(0, 3))}`);
    if (audit.completedWithoutExecution > 0) failures.push(`${audit.completedWithoutExecution} completed activities have no execution record (is BENCH_ACTIVITY_LOG set on the engine?)`);
    const recovered = result.recoverySeconds === null ? 'not recovered' : `${result.recoverySeconds} s`;
    const ready = result.restartedAtSecond === null ? 'never' : `${(result.restartedAtSecond - result.killAtSecond).toFixed(1)} s`;
    log(`W4: recovery ${recovered} (engine ready after ${ready}); ${audit.completedCorrectly}/${audit.workflows} completed correctly; re-runs before completion ${audit.rerunsBeforeCompletion}, after completion ${audit.rerunsAfterCompletion.length}`);
    return {
      result,
      rows: [
        { figure: `W4 recovery after kill -9 at ${rate} workflows/s (3 s in a row ≥ 90 % of offered)`, value: `${recovered} (new engine process ready after ${ready}; longest gap without a completion ${(result.longestCompletionGapMs / 1000).toFixed(1)} s)` },
        { figure: 'W4 workflows lost or wrong / completed activities run again', value: `${audit.problemCount} of ${audit.workflows} / ${audit.rerunsAfterCompletion.length} (${audit.rerunsBeforeCompletion} at-least-once re-runs before the completion was recorded)` },
      ],
      failures,
    };
  },
};
