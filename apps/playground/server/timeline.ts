// Each server's timeline: the tracer its client is given, whose processor keeps the spans (bounded) and sends them.
import { context, trace, SpanKind, SpanStatusCode, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { SpanView } from '../contract/api.js';
import { Ring, RING_SIZE } from './capture.js';
import { spanView } from './span-view.js';

/** Spans still open kept per server (a request never answered must not grow it without end). */
const MAX_OPEN = 500;

/**
 * Registers the process's context manager (async local storage), once: the client parents its CLIENT spans on
 * the active context, so a call run inside the playground's span (`Timeline.run`) gets them as its children.
 */
export function enableTraceContext(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

/** The failure recorded on a span: `error.type` is the error's code (`MCPC_*`, the API's own), else its name. */
export function markFailed(span: Span, error: unknown): void {
  const code: unknown = (error as { code?: unknown } | null)?.code;
  const type = typeof code === 'string' ? code : error instanceof Error ? error.name : 'Error';
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

export class Timeline {
  /** The tracer given to the server's client (`tracing: { tracer }`) and used for the playground's own spans. */
  readonly tracer: Tracer;
  readonly #ended: Ring<SpanView>;
  readonly #open = new Map<string, ReadableSpan>();
  /** The playground's own spans in flight: where an input round is marked. */
  readonly #runs = new Set<Span>();
  readonly #provider: BasicTracerProvider;

  /** `onSpan` gets each span as it starts and again as it ends; `size` ended spans are kept, `maxOpen` open ones. */
  constructor(
    private readonly serverId: string,
    onSpan: (span: SpanView) => void,
    { size = RING_SIZE, maxOpen = MAX_OPEN }: { size?: number; maxOpen?: number } = {},
  ) {
    const open = this.#open;
    const ended = (this.#ended = new Ring<SpanView>(size));
    const processor: SpanProcessor = {
      onStart(span) {
        if (open.size >= maxOpen) open.delete(open.keys().next().value ?? '');
        open.set(span.spanContext().spanId, span);
        onSpan(spanView(span));
      },
      onEnd(span) {
        open.delete(span.spanContext().spanId);
        const view = spanView(span);
        ended.push(view);
        onSpan(view);
      },
      forceFlush: () => Promise.resolve(),
      shutdown: () => Promise.resolve(),
    };
    // Always on: an OTEL_TRACES_SAMPLER in the environment is for an exporter, not for this view.
    this.#provider = new BasicTracerProvider({ sampler: new AlwaysOnSampler(), spanProcessors: [processor] });
    this.tracer = this.#provider.getTracer('@mcpc/playground');
  }

  /** The spans kept (oldest first), then those still open. */
  views(): SpanView[] {
    return [...this.#ended.toArray(), ...[...this.#open.values()].map(spanView)];
  }

  /**
   * Runs `fn` inside a span of its own, `playground <operation>` (INTERNAL, a new trace): the client's spans for
   * the requests it makes are its children. A failure is recorded on it and thrown again.
   */
  run<T>(operation: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
    const options = {
      kind: SpanKind.INTERNAL,
      root: true,
      attributes: { 'playground.server.id': this.serverId, 'playground.operation': operation, ...attributes },
    };
    return this.tracer.startActiveSpan(`playground ${operation}`, options, async (span) => {
      this.#runs.add(span);
      try {
        return await fn(span);
      } catch (error) {
        markFailed(span, error);
        throw error;
      } finally {
        this.#runs.delete(span);
        span.end();
      }
    });
  }

  /**
   * An event on the call it belongs to: the active span when it is one of ours (a 2026-07-28 input round is
   * answered inside its call), else the one call in flight (a 2025-11-25 server's request arrives on its own).
   */
  mark(name: string, attributes: Attributes): void {
    const active = trace.getActiveSpan();
    const only = this.#runs.size === 1 ? [...this.#runs][0] : undefined;
    const target = active !== undefined && this.#runs.has(active) ? active : only;
    target?.addEvent(name, attributes);
  }

  close(): Promise<void> {
    return this.#provider.shutdown();
  }
}
