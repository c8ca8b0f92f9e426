import { Counter, type Registry } from 'prom-client';
import { auditKey, type TopicCatalog } from '../../topics/catalog.js';
import type { Log, Producer } from '../../topics/log/log.js';
import type { AuditRecord } from '../../topics/schemas/audit-record/index.js';
import { auditRecordCodec } from '../../topics/serde/record-codecs.js';
import type { Serde } from '../../topics/serde/serde.js';

const FAILURES_METRIC = 'logbook_audit_write_failures_total';
const WRITTEN_METRIC = 'logbook_audit_records_total';
/** How long {@link AuditWriter.flush} waits by default: a stopping node must not hang on a broker that does not answer. */
export const AUDIT_FLUSH_MS = 5_000;

/** What the audit writer needs: the engine's log, catalog and serde, and where failures are told. */
export interface AuditWriterOptions {
  readonly log: Pick<Log, 'producer'>;
  readonly catalog: Pick<TopicCatalog, 'audit'>;
  readonly serde: Serde;
  /** Registry of the node's /metrics, where written records and failed writes are counted. */
  readonly metrics: Registry;
  /** Receives one line per failed write; default: standard error. */
  readonly onFailure?: (line: string) => void;
}

/**
 * Appends audit records to the audit topic without ever holding up or failing the call it
 * records: `append` returns at once, the write happens after the answer went out, and a write
 * that fails is told (one line) and counted in `logbook_audit_write_failures_total` — an alert on
 * that counter is how an operator learns the trail has a gap.
 */
export class AuditWriter {
  readonly #options: AuditWriterOptions;
  readonly #failures: Counter;
  readonly #written: Counter;
  #producer: Promise<Producer> | undefined;
  #pending = new Set<Promise<void>>();

  constructor(options: AuditWriterOptions) {
    this.#options = options;
    this.#failures = counter(options.metrics, FAILURES_METRIC, 'Audit records that could not be written to the audit topic (each a gap in the trail)');
    this.#written = counter(options.metrics, WRITTEN_METRIC, 'Audit records written to the audit topic');
  }

  /** Starts writing `record`; never throws and never rejects. */
  append(record: AuditRecord): void {
    const write = this.#write(record).then(
      () => this.#written.inc(),
      (error: unknown) => {
        this.#failures.inc();
        const line = `audit: could not write the record of ${record.method} ${record.route} (${record.action}, namespace ${record.namespace}): ${error instanceof Error ? error.message : String(error)}`;
        this.#tell(line);
      },
    );
    this.#pending.add(write);
    void write.finally(() => this.#pending.delete(write));
  }

  /**
   * Resolves once every record appended so far — and any appended while it waits — is written or
   * counted as failed, or once `timeoutMs` has passed (a stopping node then loses the records
   * still unwritten, which it tells). Never rejects.
   * @returns whether every record was settled in time
   */
  async flush(timeoutMs = AUDIT_FLUSH_MS): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const elapsed = new Promise<false>((done) => {
      timer = setTimeout(() => done(false), timeoutMs);
    });
    const settled = async (): Promise<true> => {
      // Calls answered while we wait append more records: wait for those too.
      while (this.#pending.size > 0) await Promise.all([...this.#pending]);
      return true;
    };
    try {
      const done = await Promise.race([settled(), elapsed]);
      if (!done) this.#tell(`audit: ${this.#pending.size} record(s) still unwritten after ${timeoutMs} ms; they are lost if the node stops now`);
      return done;
    } finally {
      clearTimeout(timer);
    }
  }

  #tell(line: string): void {
    try {
      (this.#options.onFailure ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
    } catch {
      // A failing logger must not turn a lost audit record into a crashed gateway.
    }
  }

  async #write(record: AuditRecord): Promise<void> {
    // After the answer: the caller's request never waits for the audit topic.
    await new Promise<void>((next) => setImmediate(next));
    const { log, catalog, serde } = this.#options;
    this.#producer ??= log.producer();
    const producer = await this.#producer.catch((error: unknown) => {
      this.#producer = undefined;
      throw error;
    });
    const value = await serde.encode(auditRecordCodec, record, catalog.audit);
    await producer.send([{ topic: catalog.audit, key: auditKey(record.namespace), value, timestamp: record.time }]);
  }
}

/** A counter of the registry, made once even when several apps share one registry. */
function counter(registry: Registry, name: string, help: string): Counter {
  return (registry.getSingleMetric(name) as Counter | undefined) ?? new Counter({ name, help, registers: [registry] });
}
