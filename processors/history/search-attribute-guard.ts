/**
 * Refused search attributes (issue 15): search attributes are stored in plain text (history,
 * snapshots, visibility rows) and are meant to be read, so a namespace lists the attribute names
 * its runs may not set — the names personal data would go under. Names compare without regard to
 * case (a deny list should not be dodged by `email` against `Email`).
 *
 * - a start, signal-with-start or update-with-start setting one is refused with
 *   `SearchAttributeRefused` (HTTP 400) before anything is written;
 * - a workflow task whose upsert, continue-as-new or child start sets one fails with cause
 *   `BadSearchAttributes` (Temporal's cause for search attributes it refuses) and failure code
 *   `SearchAttributeRefused`, and is retried: the run goes on once the workflow code is fixed.
 *
 * Removing one (an upsert with an empty `KeywordList`) passes: it takes data out.
 * @module
 */
import type { WorkflowCommand } from '../../topics/schemas/command/index.js';
import type { SearchAttributes } from '../../topics/schemas/common/v1-records.js';
import type { CommandProblem } from './command-validation.js';
import { guardsFor, type HistoryConfig } from './config.js';
import type { Ctx } from './context.js';
import { RejectionCode, type Rejection } from './transition.js';

/** The rejection and failure code of a refused search attribute. */
export const SEARCH_ATTRIBUTE_REFUSED = RejectionCode.SearchAttributeRefused;

function isRemoval(value: SearchAttributes[string]): boolean {
  return value.type === 'KeywordList' && value.value.length === 0;
}

/** The first attribute `attributes` sets that `namespace` refuses (its name as sent), or null. */
export function refusedSearchAttributeOf(config: HistoryConfig, namespace: string, attributes: SearchAttributes | null): string | null {
  const refused = guardsFor(config, namespace).refusedSearchAttributes;
  if (refused.length === 0 || attributes === null) return null;
  const names = new Set(refused.map((n) => n.toLowerCase()));
  return Object.entries(attributes).find(([name, value]) => names.has(name.toLowerCase()) && !isRemoval(value))?.[0] ?? null;
}

/** The message naming the attribute, the namespace and the rule. */
export function describeRefusedSearchAttribute(namespace: string, name: string, what: string): string {
  return `${what}: search attribute ${name} is refused by namespace ${namespace} (refusedSearchAttributes): search attributes are stored in plain text, keep personal data out of them`;
}

/** The `SearchAttributeRefused` rejection of a client start setting a refused attribute, or null. */
export function searchAttributeRejection(config: HistoryConfig, namespace: string, what: string, attributes: SearchAttributes | null): Rejection | null {
  const name = refusedSearchAttributeOf(config, namespace, attributes);
  return name === null ? null : { code: SEARCH_ATTRIBUTE_REFUSED, message: describeRefusedSearchAttribute(namespace, name, what) };
}

/** The namespace and search attributes a workflow command sets, if it sets any. */
function searchAttributesOf(ctx: Ctx, command: WorkflowCommand): { namespace: string; attributes: SearchAttributes | null } | null {
  const namespace = ctx.state.executionInfo.namespace;
  switch (command.type) {
    case 'UpsertWorkflowSearchAttributes':
    case 'ContinueAsNewWorkflowExecution':
      return { namespace, attributes: command.searchAttributes };
    case 'StartChildWorkflowExecution':
      return { namespace: command.namespace ?? namespace, attributes: command.searchAttributes };
    default:
      return null;
  }
}

/** The first command of a completion that sets a refused search attribute, as a problem that fails the workflow task; null if none does. */
export function refusedSearchAttributeProblem(ctx: Ctx, commands: readonly WorkflowCommand[]): CommandProblem | null {
  for (const command of commands) {
    const set = searchAttributesOf(ctx, command);
    const name = set && refusedSearchAttributeOf(ctx.config, set.namespace, set.attributes);
    if (set && name) return { cause: 'BadSearchAttributes', code: SEARCH_ATTRIBUTE_REFUSED, message: describeRefusedSearchAttribute(set.namespace, name, `${command.type} command`) };
  }
  return null;
}
