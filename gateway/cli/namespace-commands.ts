/**
 * `logbook namespace …`: register, list, describe and update namespaces.
 * @module
 */
import { Command, Option } from 'commander';
import type { NamespaceDescription, NamespaceSettings } from '../../sdk/client/namespace-client.js';
import { withGatewayOptions } from './context.js';
import type { Action } from './context.js';
import { renderList, renderRecord, type Column } from './output.js';
import { namespaceClientOf } from './sdk-clients.js';

const LIST_COLUMNS: readonly Column<NamespaceDescription>[] = [
  { heading: 'Name', value: (n) => n.name },
  { heading: 'State', value: (n) => n.state },
  { heading: 'Retention', value: (n) => n.retention },
  { heading: 'Description', value: (n) => n.description },
];

/** A guard list option as a setting: its names, `[]` for its `--no-` form, nothing when absent. */
function guardList(key: 'codecRequiredTaskQueues' | 'refusedSearchAttributes', value: unknown): NamespaceSettings {
  if (value === undefined || value === true) return {};
  return { [key]: value === false ? [] : (value as string[]) };
}

/** `namespace` and its subcommands (the namespace is the argument; `--namespace` is not used). */
export function namespaceCommand(action: Action): Command {
  const namespace = new Command('namespace').description('register and manage namespaces');
  // addCommand answers the parent: the subcommand is returned to take its action.
  const add = (command: Command): Command => {
    namespace.addCommand(withGatewayOptions(command));
    return command;
  };
  const settings = (command: Command) =>
    command
      .option('--description <text>', 'what it is for')
      .option('--owner-email <address>', 'who owns it')
      .option('--retention <duration>', 'how long closed runs are kept, e.g. 72h')
      .addOption(new Option('--state <state>', 'Deprecated refuses new starts').choices(['Registered', 'Deprecated']))
      .option('--codec-required-task-queue <queue...>', "task queues whose payloads must be encrypted ('*': every queue); replaces the list")
      .option('--no-codec-required-task-queue', 'clears the codec-required task queues')
      .option('--refused-search-attribute <name...>', 'search attribute names refused (keep personal data out of them); replaces the list')
      .option('--no-refused-search-attribute', 'clears the refused search attributes');
  const settingsOf = (o: Record<string, unknown>): NamespaceSettings => ({
    ...(o.description !== undefined ? { description: o.description as string } : {}),
    ...(o.ownerEmail !== undefined ? { ownerEmail: o.ownerEmail as string } : {}),
    ...(o.retention !== undefined ? { retention: o.retention as string } : {}),
    ...(o.state !== undefined ? { state: o.state as NamespaceSettings['state'] } : {}),
    ...guardList('codecRequiredTaskQueues', o.codecRequiredTaskQueue),
    ...guardList('refusedSearchAttributes', o.refusedSearchAttribute),
  });

  add(settings(new Command('register').description('register a namespace').argument('<name>'))).action(action(async (c, o, name) => {
    c.print(renderRecord((await namespaceClientOf(c).register(name as string, settingsOf(o))) as unknown as Record<string, unknown>, c.output));
  }));
  add(new Command('list').description('every namespace')).action(action(async (c) => {
    c.print(renderList(await namespaceClientOf(c).list(), c.output, LIST_COLUMNS));
  }));
  add(new Command('describe').description('one namespace').argument('<name>')).action(action(async (c, _o, name) => {
    c.print(renderRecord((await namespaceClientOf(c).describe(name as string)) as unknown as Record<string, unknown>, c.output));
  }));
  add(settings(new Command('update').description("change a namespace's settings").argument('<name>'))).action(action(async (c, o, name) => {
    c.print(renderRecord((await namespaceClientOf(c).update(name as string, settingsOf(o))) as unknown as Record<string, unknown>, c.output));
  }));
  return namespace;
}
