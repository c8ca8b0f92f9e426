/**
 * `logbook audit list`: the audit trail of the gateway's mutating calls, newest first.
 * @module
 */
import { Command, Option } from 'commander';
import { withGatewayOptions, type Action } from './context.js';
import { gatewayRequest } from './gateway-request.js';
import { renderList, type Column } from './output.js';

type Row = Record<string, unknown>;
const COLUMNS: readonly Column<Row>[] = [
  { heading: 'Time', value: (r) => r.time },
  { heading: 'Who', value: (r) => `${String(r.principalSubject)} (${String(r.principalMethod)})` },
  { heading: 'Action', value: (r) => r.action },
  { heading: 'Namespace', value: (r) => r.namespace },
  { heading: 'Workflow', value: (r) => r.workflowId ?? r.resourceId },
  { heading: 'Status', value: (r) => r.statusCode },
  { heading: 'Error', value: (r) => r.errorCode },
];

/** `audit` and its subcommand. */
export function auditCommand(action: Action): Command {
  const audit = new Command('audit').description('read the audit trail of changes made through the gateway');
  audit.addCommand(
    withGatewayOptions(
      new Command('list')
        .description("the namespace's audited calls, newest first (who, what, which workflow, when, outcome)")
        .option('-w, --workflow-id <id>', 'only calls about this workflow')
        .option('--since <time>', 'only calls at or after this time (RFC 3339, or epoch milliseconds)')
        .addOption(new Option('--limit <n>', 'at most this many calls (1 to 1000)').default('100'))
        .option('--all-namespaces', 'every namespace and the deployment-wide calls, instead of --namespace (needs the admin role in every namespace, *:admin)', false),
    ).action(
      action(async (c, o) => {
        const query = new URLSearchParams();
        if (typeof o.workflowId === 'string') query.set('workflowId', o.workflowId);
        if (typeof o.since === 'string') query.set('since', o.since);
        query.set('limit', String(o.limit));
        // One namespace's trail is open to its admins; the deployment-wide one needs `*:admin`.
        const path = o.allNamespaces ? '/api/v1/audit' : `/api/v1/namespaces/${encodeURIComponent(c.namespace)}/audit`;
        const page = await gatewayRequest<{ records: Row[]; truncated: boolean }>(c, 'GET', `${path}?${query}`);
        c.print(renderList(page.records, c.output, COLUMNS));
        if (page.truncated && c.output === 'table') c.print('(the scan stopped at its bound: older calls may match; narrow it with --since)');
      }),
    ),
  );
  return audit;
}
