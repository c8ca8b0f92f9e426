import { continueAsNew, sleep, workflowInfo } from '../../sdk/workflow/index.js';

/** Where a polling chain stands; carried from run to run. */
export interface PollState {
  /** Iterations done so far, over all runs. */
  done: number;
  /** Iterations wanted in total. */
  total: number;
  /** Continue as new after this many iterations of one run. */
  perRun: number;
  /** Wait on a 1 ms durable timer every this many iterations (the only thing that writes history). */
  pauseEvery: number;
  /** Also continue as new as soon as the engine suggests it. */
  heedSuggestion: boolean;
  /** Runs before this one. */
  runs: number;
}

/** How the chain ended. */
export interface PollResult {
  done: number;
  runs: number;
  firstExecutionRunId: string;
}

/**
 * A polling loop of `total` iterations. An iteration is local work (a counter) that writes no
 * history; every `pauseEvery` iterations the loop waits on a short durable timer, which costs one
 * workflow task (five events). Every `perRun` iterations — or, with `heedSuggestion`, as soon as
 * `workflowInfo().continueAsNewSuggested` turns on — it continues as new, carrying its state, so no
 * run's history grows with `total`.
 */
export async function poller(state: PollState): Promise<PollResult> {
  let done = state.done;
  for (let i = 1; done < state.total; i++) {
    done++;
    const handOver = i >= state.perRun || (state.heedSuggestion && workflowInfo().continueAsNewSuggested);
    if (handOver && done < state.total) return continueAsNew<typeof poller>({ ...state, done, runs: state.runs + 1 });
    if (i % state.pauseEvery === 0) await sleep(1);
  }
  return { done, runs: state.runs + 1, firstExecutionRunId: workflowInfo().firstExecutionRunId };
}
