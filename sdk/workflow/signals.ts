/**
 * Signals: `defineSignal` names one, `setHandler` handles it. Signals that arrive before a handler
 * is set are buffered and delivered, in arrival order, when it is set (as in Temporal).
 * @module
 */
import type { SignalHandler } from './activator.js';
import { currentActivator } from './current-activator.js';

/** A named signal carrying `Args`. Create with {@link defineSignal}. */
export interface SignalDefinition<Args extends unknown[] = [], Name extends string = string> {
  readonly type: 'signal';
  readonly name: Name;
  /** Type-only brand that carries `Args`; never set. */
  readonly __args?: Args;
}

/** Implementation of the public `defineSignal`. */
export function defineSignal<Args extends unknown[] = [], Name extends string = string>(
  name: Name,
): SignalDefinition<Args, Name> {
  return { type: 'signal', name };
}

/** Implementation of the public `setHandler`. */
export function setHandler<Args extends unknown[]>(
  signal: SignalDefinition<Args>,
  handler: ((...args: Args) => void | Promise<void>) | undefined,
): void {
  const activator = currentActivator('setHandler');
  if (handler === undefined) {
    activator.signalHandlers.delete(signal.name);
    return;
  }
  const untyped = handler as SignalHandler;
  activator.signalHandlers.set(signal.name, untyped);
  const buffered = activator.bufferedSignals;
  for (let i = 0; i < buffered.length; ) {
    const entry = buffered[i]!;
    // A handler may replace or remove itself while the buffer drains: look it up each time.
    const current = activator.signalHandlers.get(signal.name);
    if (entry.signalName !== signal.name || current === undefined) {
      i++;
      continue;
    }
    buffered.splice(i, 1);
    activator.invokeSignalHandler(current, entry.args);
  }
}

/**
 * Implementation of the public `setDefaultSignalHandler`: the handler gets every signal that has
 * no handler of its own, with the signal's name first; signals buffered before it was set are
 * delivered to it now, in arrival order. `undefined` removes it (later signals are buffered again).
 */
export function setDefaultSignalHandler(handler: ((signalName: string, ...args: unknown[]) => void | Promise<void>) | undefined): void {
  const activator = currentActivator('setDefaultSignalHandler');
  activator.defaultSignalHandler = handler;
  if (handler === undefined) return;
  const buffered = activator.bufferedSignals;
  for (let i = 0; i < buffered.length; ) {
    const entry = buffered[i]!;
    // The handler may remove itself, or a specific handler may appear, while the buffer drains.
    const fallback = activator.defaultSignalHandler;
    if (activator.signalHandlers.has(entry.signalName) || fallback === undefined) {
      i++;
      continue;
    }
    buffered.splice(i, 1);
    activator.invokeSignalHandler((...args) => fallback(entry.signalName, ...args), entry.args);
  }
}
