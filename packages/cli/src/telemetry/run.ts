// A command line traced: the recorder set up for the run (OTLP export, `--trace`'s tree), its root span, the flush.
//
// Loaded only when the environment or `--trace` asks for it: a run without either imports none of this.
import { SpanKind, SpanStatusCode, context, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { CliContext, Telemetry } from '../context.js';
import type { Output } from '../output.js';
import { VERSION } from '../version.js';
import type { OtlpPlan, OtlpSettings } from './env.js';
import { limitsFromEnv } from './attributes.js';
import { OtlpJsonExporter } from './otlp-exporter.js';
import { BatchProcessor, MemoryProcessor, batchFromEnv } from './processors.js';
import { parentFrom } from './propagation.js';
import { samplerFromEnv } from './sampler.js';
import { hrTimeToMs, type FinishedSpan } from './span.js';
import { Recorder, type SpanProcessor } from './tracer.js';
import { eventDetail, renderTree, type TreeSpan } from './tree.js';

/** What the flush waits beyond the exporter's own deadline before it stops waiting. */
const GRACE_MS = 500;

/** Runs `work` (a command line, by its exit code) in a root span named `name`; then prints and exports the spans. */
export async function traced(
  ctx: CliContext,
  name: string,
  { settings, warnings }: OtlpPlan,
  work: (ctx: CliContext) => Promise<number>,
): Promise<number> {
  for (const warning of warnings) ctx.out.warn(warning);
  const print = ctx.flags.trace === true;
  if (settings === undefined && !print) return work(ctx);
  const run = new TracedRun(settings, print, ctx.env);
  for (const warning of run.warnings) ctx.out.warn(warning);
  const root = run.tracer.startSpan(name, { kind: SpanKind.INTERNAL }, run.parent);
  let code: number | undefined;
  try {
    code = await context.with(trace.setSpan(run.parent, root), () => work({ ...ctx, telemetry: run }));
    return code;
  } catch (error) {
    failed(root, error);
    throw error;
  } finally {
    if (code !== undefined) {
      root.setAttribute('process.exit.code', code);
      if (code !== 0) root.setStatus({ code: SpanStatusCode.ERROR, message: `exit ${code}` });
    }
    root.end();
    await run.finish(ctx.out, root.spanContext().traceId);
  }
}

/** A span's failure: the error's typed code (MCPC_…) or its name. Never its message, which may quote a server. */
function failed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  const type = typeof code === 'string' ? code : error instanceof Error ? error.name : 'Error';
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** The recorder for one run: a provider registered globally (the client's spans come from it), and its processors. */
class TracedRun implements Telemetry {
  readonly tracer: Tracer;
  /** The context the run's spans descend from: `TRACEPARENT` / `TRACESTATE` / `BAGGAGE` when a parent set them. */
  readonly parent: Context;
  /** What was wrong with the sampler's variables. */
  readonly warnings: readonly string[];
  readonly #provider: Recorder;
  readonly #contextManager = new AsyncLocalStorageContextManager();
  readonly #exporter: OtlpJsonExporter | undefined;
  readonly #batch: BatchProcessor | undefined;
  readonly #memory: MemoryProcessor | undefined;
  readonly #settings: OtlpSettings | undefined;

  constructor(settings: OtlpSettings | undefined, print: boolean, env: NodeJS.ProcessEnv) {
    this.#settings = settings;
    const processors: SpanProcessor[] = [];
    if (settings !== undefined) {
      this.#exporter = new OtlpJsonExporter(settings);
      this.#batch = new BatchProcessor(this.#exporter, batchFromEnv(env));
      processors.push(this.#batch);
    }
    if (print) {
      this.#memory = new MemoryProcessor();
      processors.push(this.#memory);
    }
    const own = settings?.resource ?? { 'service.name': 'mcpc' };
    // mcpc's version describes the service only when the service is mcpc (no OTEL_SERVICE_NAME of the caller's).
    const service = own['service.name'] === 'mcpc' ? { 'service.version': VERSION, ...own } : own;
    const { sampler, warnings } = samplerFromEnv(env);
    this.warnings = warnings;
    this.#provider = new Recorder({
      // telemetry.sdk.* name what recorded the spans: mcpc's own recorder, not the OpenTelemetry SDK.
      resource: { attributes: { ...SDK_ATTRIBUTES, ...service } },
      processors,
      sampler,
      limits: limitsFromEnv(env),
    });
    context.setGlobalContextManager(this.#contextManager.enable());
    trace.setGlobalTracerProvider(this.#provider);
    this.tracer = this.#provider.getTracer('@mcpc/cli', VERSION);
    this.parent = parentFrom(env);
  }

  step<T>(name: string, work: () => Promise<T>): Promise<T> {
    const span = this.tracer.startSpan(name, { kind: SpanKind.INTERNAL });
    return context.with(trace.setSpan(context.active(), span), work).then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        failed(span, error);
        span.end();
        throw error;
      },
    );
  }

  /** Prints the tree (`--trace`), then waits for the export, no longer than its deadline, and says when it failed. */
  async finish(out: Output, traceId: string): Promise<void> {
    if (this.#memory !== undefined) {
      const spans = this.#memory.spans.filter((s) => s.spanContext().traceId === traceId);
      out.note(`trace ${traceId}`);
      for (const line of renderTree(spans.map(treeSpan))) out.note(line);
      if (this.#memory.dropped > 0) out.note(`(${this.#memory.dropped} more spans not shown)`);
    }
    const deadline = (this.#settings?.timeoutMs ?? 0) + 2 * GRACE_MS;
    let timer: NodeJS.Timeout | undefined;
    const flushed = await Promise.race([
      this.#provider
        .shutdown()
        .catch(() => undefined)
        .then(() => this.#exporter?.forceFlush())
        .then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), deadline))),
    ]);
    clearTimeout(timer);
    trace.disable();
    context.disable();
    const failure = this.#exporter?.failure ?? (flushed ? undefined : `no answer in ${deadline} ms`);
    if (this.#settings !== undefined && failure !== undefined)
      out.warn(`spans not exported to ${shown(this.#settings.url)}: ${failure}`);
    const dropped = this.#batch?.dropped ?? 0;
    if (dropped > 0)
      out.warn(`${dropped} spans dropped: more ended than the export queue holds (OTEL_BSP_MAX_QUEUE_SIZE)`);
  }
}

const SDK_ATTRIBUTES = {
  'telemetry.sdk.name': '@mcpc/cli',
  'telemetry.sdk.language': 'nodejs',
  'telemetry.sdk.version': VERSION,
} as const;

function treeSpan(span: FinishedSpan): TreeSpan {
  const errorType = span.attributes['error.type'];
  return {
    id: span.spanContext().spanId,
    parentId: span.parentSpanContext?.spanId,
    name: span.name,
    startMs: hrTimeToMs(span.startTime),
    endMs: hrTimeToMs(span.endTime),
    error:
      span.status.code !== SpanStatusCode.ERROR
        ? undefined
        : typeof errorType === 'string'
          ? errorType
          : (span.status.message ?? 'error'),
    events: span.events.map((event) => ({
      name: event.name,
      timeMs: hrTimeToMs(event.time),
      detail: eventDetail(event.attributes),
    })),
  };
}

/** The endpoint as a warning shows it: no credentials, no query. */
function shown(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}
