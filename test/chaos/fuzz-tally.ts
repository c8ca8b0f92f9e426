import { windowDuring, type FaultWindow } from './fault-windows.js';

/**
 * How the HTTP fuzz's answers are judged and counted. A 5xx is a failure, except a 503 with
 * Retry-After inside the window of a kill the harness injected (a failover the caller is told to
 * wait out). An answer later than the request's own wait plus {@link HANG_SLACK_MS} is a hang.
 */

/** How much longer than its own wait a request may take before it counts as a hang. */
export const HANG_SLACK_MS = 10_000;
/** The runner waits at most this long on top of the slack for a request asking a longer wait (it is then abandoned, not hung). */
export const WAIT_CAP_MS = 60_000;

/** One answer (or failure to answer) as the runner saw it. */
export interface FuzzAnswer {
  readonly route: string;
  readonly method: string;
  readonly path: string;
  readonly ownWaitMs: number;
  /** The engine node it was sent to (`engine-1`…). */
  readonly node: string;
  readonly sentAt: number;
  readonly elapsedMs: number;
  readonly status?: number;
  readonly retryAfter?: string;
  /** The start of the answer's body (its `{code, message}` for errors). */
  readonly bodySample?: string;
  /** A network error (no HTTP answer). */
  readonly error?: string;
  /** The runner gave up waiting. */
  readonly timedOut?: boolean;
  /** The node was killed while the request was in flight (or just before it was sent). */
  readonly targetKilled?: boolean;
}

/** What an answer counts as. */
export type FuzzJudgement = 'ok' | 'allowed-503' | 'server-error' | 'hang' | 'abandoned' | 'dropped-by-kill' | 'connection-error';

/** Judges one answer against the final fault windows. */
export function judgeFuzzAnswer(answer: FuzzAnswer, windows: readonly FaultWindow[]): FuzzJudgement {
  if (answer.targetKilled && (answer.timedOut || answer.status === undefined)) return 'dropped-by-kill';
  if (answer.timedOut) return answer.ownWaitMs > WAIT_CAP_MS ? 'abandoned' : 'hang';
  if (answer.status === undefined) return answer.targetKilled ? 'dropped-by-kill' : 'connection-error';
  if (answer.elapsedMs > answer.ownWaitMs + HANG_SLACK_MS) return 'hang';
  if (answer.status < 500) return 'ok';
  if (answer.status === 503 && answer.retryAfter !== undefined && windowDuring(windows, answer.sentAt, answer.sentAt + answer.elapsedMs)) return 'allowed-503';
  return 'server-error';
}

/** The fuzz's figures. */
export interface FuzzFigures {
  readonly requests: number;
  readonly byStatus: Readonly<Record<string, number>>;
  readonly byJudgement: Readonly<Record<FuzzJudgement, number>>;
  /** 5xx that are not an allowed 503, by status, code and route. */
  readonly serverErrorsByKind: Readonly<Record<string, number>>;
  readonly serverErrors: number;
  /** The same 5xx by status, code and message (ids and numbers blanked): what to fix, most frequent first. */
  readonly serverErrorMessages: Readonly<Record<string, number>>;
  /** The same 5xx by status alone. */
  readonly serverErrorsByStatus: Readonly<Record<string, number>>;
  /**
   * 504s of requests that asked for a short wait and got it (a result, update or query that did not
   * come within the request's own timeout): counted as 5xx, shown apart because the remedy is the
   * answer's status, not a bug behind it.
   */
  readonly timeoutsAsAsked: number;
  readonly hangs: number;
  /** The first answers of each failing judgement, as evidence. */
  readonly examples: readonly FuzzAnswer[];
  /** The slowest answers, whatever their status. */
  readonly slowest: readonly FuzzAnswer[];
}

const EXAMPLES_PER_KIND = 5;
/** Requests whose wait the generator could not know are given the longest route default (http-fuzz.ts): not "as asked". */
const UNKNOWN_WAIT = 60_000;

/**
 * Counts answers as they come: every status, and the answers that may fail (5xx, network errors,
 * time-outs, slow ones) kept for judging once the fault windows are final.
 */
export class FuzzTally {
  private requests = 0;
  private readonly byStatus: Record<string, number> = {};
  private readonly suspects: FuzzAnswer[] = [];
  private slowest: FuzzAnswer[] = [];

  add(answer: FuzzAnswer): void {
    this.requests++;
    const status = answer.status === undefined ? (answer.timedOut ? 'timed out' : 'no answer') : String(answer.status);
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
    if (answer.status === undefined || answer.status >= 500 || answer.elapsedMs > answer.ownWaitMs + HANG_SLACK_MS) this.suspects.push(answer);
    this.slowest = [...this.slowest, answer].sort((a, b) => b.elapsedMs - a.elapsedMs).slice(0, 10);
  }

  get count(): number {
    return this.requests;
  }

  /** 5xx and hangs so far, judged with the windows known now (for progress lines). */
  provisional(windows: readonly FaultWindow[]): { serverErrors: number; hangs: number } {
    const judged = this.suspects.map((a) => judgeFuzzAnswer(a, windows));
    return { serverErrors: judged.filter((j) => j === 'server-error').length, hangs: judged.filter((j) => j === 'hang').length };
  }

  /** The figures, judged with the final windows. */
  figures(windows: readonly FaultWindow[]): FuzzFigures {
    const byJudgement: Record<FuzzJudgement, number> = { ok: this.requests - this.suspects.length, 'allowed-503': 0, 'server-error': 0, hang: 0, abandoned: 0, 'dropped-by-kill': 0, 'connection-error': 0 };
    const serverErrorsByKind: Record<string, number> = {};
    const serverErrorsByStatus: Record<string, number> = {};
    const serverErrorMessages: Record<string, number> = {};
    let timeoutsAsAsked = 0;
    const examples: FuzzAnswer[] = [];
    const shown: Record<string, number> = {};
    for (const answer of this.suspects) {
      const judgement = judgeFuzzAnswer(answer, windows);
      byJudgement[judgement]++;
      if (judgement === 'server-error') {
        const kind = `${answer.status} ${codeOf(answer.bodySample)} on ${answer.route}`;
        serverErrorsByKind[kind] = (serverErrorsByKind[kind] ?? 0) + 1;
        serverErrorsByStatus[String(answer.status)] = (serverErrorsByStatus[String(answer.status)] ?? 0) + 1;
        const message = `${answer.status} ${codeOf(answer.bodySample)}: ${messageOf(answer.bodySample)}`;
        serverErrorMessages[message] = (serverErrorMessages[message] ?? 0) + 1;
        if (answer.status === 504 && answer.ownWaitMs < UNKNOWN_WAIT && /TIMEOUT/.test(codeOf(answer.bodySample))) timeoutsAsAsked++;
      }
      const bucket = judgement === 'server-error' ? `${judgement} ${answer.status} ${codeOf(answer.bodySample)}` : judgement;
      if (judgement !== 'ok' && (shown[bucket] = (shown[bucket] ?? 0) + 1) <= EXAMPLES_PER_KIND) examples.push(answer);
    }
    return {
      requests: this.requests, byStatus: this.byStatus, byJudgement, serverErrorsByKind, serverErrors: byJudgement['server-error'], serverErrorsByStatus, timeoutsAsAsked,
      serverErrorMessages: Object.fromEntries(Object.entries(serverErrorMessages).sort((a, b) => b[1] - a[1])),
      hangs: byJudgement.hang, examples, slowest: this.slowest,
    };
  }
}

/** The `message` of a JSON error body with ids, quoted values and numbers blanked, so one cause counts once. */
function messageOf(body: string | undefined): string {
  const message = /"message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(body ?? '')?.[1] ?? (body ? body.slice(0, 60) : '(no body)');
  return message.replace(/'[^']*'/g, "'…'").replace(/[0-9a-f]{8}-[0-9a-f-]{27,}/g, '<id>').replace(/\d+/g, '#').slice(0, 120);
}

/** The `code` of a JSON error body, or `-`. */
function codeOf(body: string | undefined): string {
  return /"code"\s*:\s*"([^"]+)"/.exec(body ?? '')?.[1] ?? '-';
}
