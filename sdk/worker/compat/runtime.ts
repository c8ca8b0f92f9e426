/**
 * `Runtime` of `logbook/worker`: the process-wide settings of Temporal's runtime that Logbook has —
 * the logger workflows and activities log to.
 * @module
 */
import { runtimeLogger, setRuntimeLogger, type Logger } from '../../common/logger.js';

/** Options of {@link Runtime.install}. */
export interface RuntimeOptions {
  /** Where workflow and activity logs go; default a `DefaultLogger` at INFO on stderr. */
  readonly logger?: Logger;
}

/** The process's runtime (Temporal's `Runtime`). */
export class Runtime {
  private constructor(readonly logger: Logger) {}

  /** Sets the process's logger; call it before creating workers. */
  static install(options: RuntimeOptions): Runtime {
    if (options.logger) setRuntimeLogger(options.logger);
    return new Runtime(runtimeLogger());
  }

  /** The runtime as installed (or the default). */
  static instance(): Runtime {
    return new Runtime(runtimeLogger());
  }
}
