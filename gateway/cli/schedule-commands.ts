/**
 * `logbook schedule …`: create, list, describe, trigger, pause, unpause, backfill, update and
 * delete schedules over the gateway's HTTP API, with the Temporal CLI's flag names.
 * @module
 */
import { Command, Option } from 'commander';
import type { ScheduleDefinitionOptions, ScheduleListEntry } from '../../sdk/client/schedule-client.js';
import { OVERLAP_POLICIES, type OverlapPolicy } from '../../sdk/schedules/schedule-definition.js';
import { collect, encodedInputs, withGatewayOptions, withSubjectOption, type CliContext } from './context.js';
import type { Action } from './context.js';
import { usage } from './errors.js';
import { renderList, renderRecord, type Column } from './output.js';
import { scheduleClientOf } from './sdk-clients.js';

const LIST_COLUMNS: readonly Column<ScheduleListEntry>[] = [
  { heading: 'Schedule id', value: (s) => s.scheduleId },
  { heading: 'Workflow type', value: (s) => s.workflowType },
  { heading: 'Created', value: (s) => s.createdAt },
];

/** `schedule` and its subcommands. */
export function scheduleCommand(action: Action): Command {
  const schedule = new Command('schedule').description('create and manage schedules');
  const client = scheduleClientOf;
  // addCommand answers the parent: the subcommand is returned to take its action.
  const add = (command: Command): Command => {
    schedule.addCommand(withGatewayOptions(command));
    return command;
  };
  const id = (command: Command) => command.requiredOption('-s, --schedule-id <id>', 'the schedule');
  const done = (c: CliContext, what: string, scheduleId: unknown) => c.print(c.output === 'table' ? `${what} ${String(scheduleId)}` : JSON.stringify({ scheduleId, done: what }));

  add(definitionOptions(id(new Command('create').description('create a schedule'))).option('--paused', 'create it paused', false).option('--note <text>', 'why (shown by describe)')).action(action(async (c, o) => {
    await client(c).create({ scheduleId: o.scheduleId as string, ...(await definitionOf(c, o)), state: { paused: o.paused === true, ...(o.note ? { note: o.note as string } : {}) } });
    done(c, 'created', o.scheduleId);
  }));

  add(new Command('list').description("the namespace's schedules")).action(action(async (c) => {
    c.print(renderList(await client(c).list(), c.output, LIST_COLUMNS));
  }));

  add(id(new Command('describe').description('the schedule: spec, action, state, recent and upcoming actions'))).action(action(async (c, o) => {
    const described = await c.values.decode(await client(c).getHandle(o.scheduleId as string).describe());
    c.print(renderRecord(described as unknown as Record<string, unknown>, c.output));
  }));

  add(id(new Command('trigger').description('take an action now')).addOption(overlapOption())).action(action(async (c, o) => {
    await client(c).getHandle(o.scheduleId as string).trigger(o.overlapPolicy as OverlapPolicy | undefined);
    done(c, 'triggered', o.scheduleId);
  }));

  add(id(new Command('pause').description('stop taking actions')).option('--reason <text>', 'why')).action(action(async (c, o) => {
    await client(c).getHandle(o.scheduleId as string).pause(o.reason as string | undefined);
    done(c, 'paused', o.scheduleId);
  }));

  add(id(new Command('unpause').description('take actions again')).option('--reason <text>', 'why')).action(action(async (c, o) => {
    await client(c).getHandle(o.scheduleId as string).unpause(o.reason as string | undefined);
    done(c, 'unpaused', o.scheduleId);
  }));

  add(id(new Command('backfill').description('take the actions a past range had')).requiredOption('--start-time <time>', 'RFC 3339').requiredOption('--end-time <time>', 'RFC 3339').addOption(overlapOption())).action(action(async (c, o) => {
    const startAt = instant(o.startTime as string, '--start-time');
    const endAt = instant(o.endTime as string, '--end-time');
    await client(c).getHandle(o.scheduleId as string).backfill({ startAt, endAt, ...(o.overlapPolicy ? { overlap: o.overlapPolicy as OverlapPolicy } : {}) });
    done(c, 'backfilled', o.scheduleId);
  }));

  add(definitionOptions(id(new Command('update').description("replace the schedule's spec, action and policies (its state is kept)")))).action(action(async (c, o) => {
    await client(c).getHandle(o.scheduleId as string).update(await definitionOf(c, o));
    done(c, 'updated', o.scheduleId);
  }));

  add(id(new Command('delete').description('delete the schedule (its running workflows go on)'))).action(action(async (c, o) => {
    await client(c).getHandle(o.scheduleId as string).delete();
    done(c, 'deleted', o.scheduleId);
  }));

  return schedule;
}

function overlapOption(): Option {
  return new Option('--overlap-policy <policy>', 'when an action is due while the last one still runs').choices(OVERLAP_POLICIES);
}

/** The flags of a schedule's definition (create, update). */
function definitionOptions(command: Command): Command {
  return withSubjectOption(command)
    .option('--cron <expression>', 'a cron expression (repeat for more)', collect)
    .option('--interval <every[/offset]>', 'e.g. 1h or 1d/2h (repeat for more)', collect)
    .option('--time-zone <zone>', 'IANA time zone of the cron expressions')
    .option('--start-time <time>', 'no actions before (RFC 3339)')
    .option('--end-time <time>', 'no actions after (RFC 3339)')
    .option('--jitter <duration>', 'delay each action by up to this')
    .requiredOption('--type <workflow type>', 'the workflow each action starts')
    .requiredOption('-t, --task-queue <queue>', 'its task queue')
    .option('-w, --workflow-id <id>', "its id prefix (default: the schedule's id)")
    .option('-i, --input <json>', 'an argument as JSON (repeat for more)', collect)
    .addOption(overlapOption())
    .option('--catchup-window <duration>', 'how late a missed action may still be taken');
}

/** A schedule's definition; with a codec endpoint, its action's input encoded there. */
async function definitionOf(c: CliContext, o: Record<string, unknown>): Promise<ScheduleDefinitionOptions> {
  const cron = (o.cron as string[] | undefined) ?? [];
  const intervals = ((o.interval as string[] | undefined) ?? []).map((text) => {
    const [every, offset] = text.split('/');
    return { every: every!, ...(offset ? { offset } : {}) };
  });
  if (cron.length === 0 && intervals.length === 0) throw usage('a schedule needs --cron or --interval (or both)');
  return {
    spec: {
      ...(cron.length > 0 ? { cronExpressions: cron } : {}),
      ...(intervals.length > 0 ? { intervals } : {}),
      ...(o.timeZone ? { timeZone: o.timeZone as string } : {}),
      ...(o.startTime ? { startAt: instant(o.startTime as string, '--start-time') } : {}),
      ...(o.endTime ? { endAt: instant(o.endTime as string, '--end-time') } : {}),
      ...(o.jitter ? { jitter: o.jitter as string } : {}),
    },
    action: {
      workflowType: o.type as string,
      taskQueue: o.taskQueue as string,
      ...(o.workflowId ? { workflowId: o.workflowId as string } : {}),
      args: await encodedInputs(c, o),
    },
    ...(o.overlapPolicy || o.catchupWindow ? { policies: { ...(o.overlapPolicy ? { overlap: o.overlapPolicy as OverlapPolicy } : {}), ...(o.catchupWindow ? { catchupWindow: o.catchupWindow as string } : {}) } } : {}),
  };
}

function instant(text: string, flag: string): Date {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw usage(`${flag} ${JSON.stringify(text)} is not a time (RFC 3339, e.g. 2026-12-05T09:00:00Z)`);
  return new Date(ms);
}
