// A SpanExporter that POSTs OTLP/HTTP JSON, once per batch, within a deadline, and keeps what went wrong to say it.
//
// Why not @opentelemetry/exporter-trace-otlp-http: it brings the logs and metrics SDKs with it (6 more packages,
// +9.6 MB installed, +25 ms to load), and retries with backoff, which a CLI would have to bound anyway.
import type { OtlpSettings } from './env.js';
import { exportRequest } from './otlp-json.js';
import type { SpanExporter } from './processors.js';
import type { FinishedSpan } from './span.js';

/** Why an export failed, in words for the warning (the first failure of the run). */
export type ExportFailure = string;

export class OtlpJsonExporter implements SpanExporter {
  readonly #settings: OtlpSettings;
  readonly #pending = new Set<Promise<void>>();
  #failure: ExportFailure | undefined;
  #stopped = false;

  constructor(settings: OtlpSettings) {
    this.#settings = settings;
  }

  /** The first failure of the run, if an export failed. */
  get failure(): ExportFailure | undefined {
    return this.#failure;
  }

  /** Resolves when the batch is out or has failed: the first failure is kept (`failure`), never thrown. */
  export(spans: readonly FinishedSpan[]): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    const sent = this.#post(spans).catch((error: Error) => {
      this.#failure ??= error.message;
    });
    this.#pending.add(sent);
    void sent.finally(() => this.#pending.delete(sent));
    return sent;
  }

  async #post(spans: readonly FinishedSpan[]): Promise<void> {
    const { url, headers, timeoutMs } = this.#settings;
    const started = performance.now();
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(exportRequest(spans)),
        // The deadline covers the whole exchange: a collector that accepts and never answers costs no more.
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`HTTP ${response.status}${text === '' ? '' : `: ${text.slice(0, 200)}`}`);
      rejected(text);
    } catch (error) {
      const ms = Math.round(performance.now() - started);
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
        throw new Error(`no answer in ${ms} ms`);
      throw new Error(`${describe(error)} (after ${ms} ms)`);
    }
  }

  async forceFlush(): Promise<void> {
    await Promise.all(this.#pending);
  }

  async shutdown(): Promise<void> {
    this.#stopped = true;
    await this.forceFlush();
  }
}

/** A `partialSuccess` that rejected spans is a failure to report (the collector said why). */
function rejected(text: string): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return;
  }
  const partial = (body as { partialSuccess?: { rejectedSpans?: unknown; errorMessage?: unknown } } | null)
    ?.partialSuccess;
  const count = Number(partial?.rejectedSpans ?? 0);
  if (count > 0)
    throw new Error(
      `the collector rejected ${count} span(s)${typeof partial?.errorMessage === 'string' ? `: ${partial.errorMessage}` : ''}`,
    );
}

/** fetch's own message is "fetch failed": the reason is in its cause (ECONNREFUSED, ENOTFOUND, …). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.code === 'string') return cause.code;
  return typeof cause?.message === 'string' ? cause.message : error.message;
}
