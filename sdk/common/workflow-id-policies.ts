/**
 * The workflow id policies as Temporal's TypeScript SDK spells them (`'FAIL'`, `'USE_EXISTING'`,
 * …), and their translation to the spellings of Logbook's contract (`'Fail'`, `'UseExisting'`, …),
 * which the clients keep accepting as aliases.
 * @module
 */

/** What a start does when a run with its workflow id is open (Temporal's `WorkflowIdConflictPolicy`). */
export const WorkflowIdConflictPolicy = {
  /** Refuse the start: `WorkflowExecutionAlreadyStartedError`. */
  FAIL: 'FAIL',
  /** Answer with the open run instead of starting one. */
  USE_EXISTING: 'USE_EXISTING',
  /** Terminate the open run and start a new one. */
  TERMINATE_EXISTING: 'TERMINATE_EXISTING',
} as const;
export type WorkflowIdConflictPolicy = (typeof WorkflowIdConflictPolicy)[keyof typeof WorkflowIdConflictPolicy];

/** Whether a closed run's workflow id may be used again (Temporal's `WorkflowIdReusePolicy`). */
export const WorkflowIdReusePolicy = {
  ALLOW_DUPLICATE: 'ALLOW_DUPLICATE',
  ALLOW_DUPLICATE_FAILED_ONLY: 'ALLOW_DUPLICATE_FAILED_ONLY',
  REJECT_DUPLICATE: 'REJECT_DUPLICATE',
  /** Deprecated in Temporal: allow duplicates and terminate an open run (conflict policy TERMINATE_EXISTING). */
  TERMINATE_IF_RUNNING: 'TERMINATE_IF_RUNNING',
} as const;
export type WorkflowIdReusePolicy = (typeof WorkflowIdReusePolicy)[keyof typeof WorkflowIdReusePolicy];

/** The contract's spelling of a conflict policy. */
export type EngineConflictPolicy = 'Fail' | 'UseExisting' | 'TerminateExisting';
/** The contract's spelling of a reuse policy. */
export type EngineReusePolicy = 'AllowDuplicate' | 'AllowDuplicateFailedOnly' | 'RejectDuplicate';

const CONFLICT: Readonly<Record<string, EngineConflictPolicy>> = {
  FAIL: 'Fail', USE_EXISTING: 'UseExisting', TERMINATE_EXISTING: 'TerminateExisting',
  Fail: 'Fail', UseExisting: 'UseExisting', TerminateExisting: 'TerminateExisting',
};
const REUSE: Readonly<Record<string, EngineReusePolicy>> = {
  ALLOW_DUPLICATE: 'AllowDuplicate', ALLOW_DUPLICATE_FAILED_ONLY: 'AllowDuplicateFailedOnly', REJECT_DUPLICATE: 'RejectDuplicate', TERMINATE_IF_RUNNING: 'AllowDuplicate',
  AllowDuplicate: 'AllowDuplicate', AllowDuplicateFailedOnly: 'AllowDuplicateFailedOnly', RejectDuplicate: 'RejectDuplicate',
};

/**
 * The contract's policies for a start's Temporal (or Logbook) spellings; `TERMINATE_IF_RUNNING`
 * becomes reuse `AllowDuplicate` with conflict `TerminateExisting`, as in Temporal.
 * @throws TypeError naming the accepted spellings for any other value
 */
export function enginePolicies(conflict: string | undefined, reuse: string | undefined): { workflowIdConflictPolicy?: EngineConflictPolicy; workflowIdReusePolicy?: EngineReusePolicy } {
  const policies: { workflowIdConflictPolicy?: EngineConflictPolicy; workflowIdReusePolicy?: EngineReusePolicy } = {};
  if (conflict !== undefined) {
    const mapped = Object.hasOwn(CONFLICT, conflict) ? CONFLICT[conflict] : undefined;
    if (!mapped) throw new TypeError(`workflowIdConflictPolicy must be one of ${Object.keys(WorkflowIdConflictPolicy).join(', ')}; got ${JSON.stringify(conflict)}`);
    policies.workflowIdConflictPolicy = mapped;
  }
  if (reuse !== undefined) {
    const mapped = Object.hasOwn(REUSE, reuse) ? REUSE[reuse] : undefined;
    if (!mapped) throw new TypeError(`workflowIdReusePolicy must be one of ${Object.keys(WorkflowIdReusePolicy).join(', ')}; got ${JSON.stringify(reuse)}`);
    policies.workflowIdReusePolicy = mapped;
    if (reuse === 'TERMINATE_IF_RUNNING') {
      if (conflict !== undefined && policies.workflowIdConflictPolicy !== 'TerminateExisting') {
        throw new TypeError('workflowIdReusePolicy TERMINATE_IF_RUNNING goes only with workflowIdConflictPolicy TERMINATE_EXISTING (or none)');
      }
      policies.workflowIdConflictPolicy = 'TerminateExisting';
    }
  }
  return policies;
}
