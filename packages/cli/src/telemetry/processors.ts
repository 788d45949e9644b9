// Where ended spans go: a bounded batching queue to an exporter (OTLP), and a bounded list for `--trace`'s tree.
import { TraceFlags } from '@opentelemetry/api';
import type { FinishedSpan } from './span.js';
import type { SpanProcessor } from './tracer.js';

/** Sends a batch; resolves when it is out or has failed (the exporter keeps its failure to say it). */
export interface SpanExporter {
  export(spans: readonly FinishedSpan[]): Promise<void>;
}

export interface BatchOptions {
  /** Spans held at most; past it a span is dropped and counted (a run that makes spans faster than they leave). */
  readonly maxQueueSize: number;
  /** Spans per export; a full batch leaves at once. */
  readonly maxExportBatchSize: number;
  /** How long a part batch waits for more before it leaves, in milliseconds. */
  readonly scheduledDelayMs: number;
}

/** The SDK's defaults, and its `OTEL_BSP_*` variables. */
export function batchFromEnv(env: NodeJS.ProcessEnv): BatchOptions {
  const read = (name: string, fallback: number): number => {
    const n = Number(env[name]?.trim() || Number.NaN);
    return Number.isInteger(n) && n > 0 ? n : fallback;
  };
  const maxQueueSize = read('OTEL_BSP_MAX_QUEUE_SIZE', 2048);
  return {
    maxQueueSize,
    maxExportBatchSize: Math.min(read('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512), maxQueueSize),
    scheduledDelayMs: read('OTEL_BSP_SCHEDULE_DELAY', 5000),
  };
}

const sampled = (span: FinishedSpan): boolean => (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;

/**
 * Batches to an exporter, one export at a time (as the SDK's BatchSpanProcessor): a full batch leaves at once, a part
 * one after the delay; while an export is out, spans wait in the queue, and past its bound they are dropped and
 * counted. A flush sends all of it at once (the queue's bound is the bound on that too).
 */
export class BatchProcessor implements SpanProcessor {
  /** Spans dropped because the queue was full. */
  dropped = 0;
  readonly #exporter: SpanExporter;
  readonly #options: BatchOptions;
  readonly #queue: FinishedSpan[] = [];
  #exporting: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(exporter: SpanExporter, options: BatchOptions) {
    this.#exporter = exporter;
    this.#options = options;
  }

  onEnd(span: FinishedSpan): void {
    if (this.#stopped || !sampled(span)) return;
    if (this.#queue.length >= this.#options.maxQueueSize) {
      this.dropped++;
      return;
    }
    this.#queue.push(span);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#exporting !== undefined || this.#stopped) return;
    if (this.#queue.length >= this.#options.maxExportBatchSize) this.#exportOne();
    else if (this.#queue.length > 0 && this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#exportOne(), this.#options.scheduledDelayMs);
      // A waiting batch keeps no process alive: the run's end flushes it.
      this.#timer.unref?.();
    }
  }

  #exportOne(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#queue.splice(0, this.#options.maxExportBatchSize);
    this.#exporting = this.#send(batch).finally(() => {
      this.#exporting = undefined;
      this.#schedule();
    });
  }

  #send(batch: readonly FinishedSpan[]): Promise<void> {
    return batch.length === 0 ? Promise.resolve() : this.#exporter.export(batch).catch(() => undefined);
  }

  /** What is out, and the rest of the queue sent now beside it. */
  async forceFlush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const sends: Promise<void>[] = [];
    while (this.#queue.length > 0) sends.push(this.#send(this.#queue.splice(0, this.#options.maxExportBatchSize)));
    await Promise.all([this.#exporting, ...sends]);
  }

  async shutdown(): Promise<void> {
    this.#stopped = true;
    await this.forceFlush();
  }
}

/** Keeps ended spans for `--trace` (a run's worth; past `max`, dropped and counted). */
export class MemoryProcessor implements SpanProcessor {
  readonly spans: FinishedSpan[] = [];
  dropped = 0;
  readonly #max: number;

  constructor(max = 10_000) {
    this.#max = max;
  }

  onEnd(span: FinishedSpan): void {
    if (!sampled(span)) return;
    if (this.spans.length >= this.#max) this.dropped++;
    else this.spans.push(span);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
