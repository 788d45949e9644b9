// The standard `OTEL_*` variables read: whether spans are exported over OTLP/HTTP, where to, and with what resource.
//
// Imported by the dispatcher (no dependency, nothing loaded): the recorder itself is imported only when this says so.

/** Where spans go and what they say of the process (the OTLP/HTTP JSON exporter's settings). */
export interface OtlpSettings {
  /** The traces URL (`…/v1/traces`). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** How long one export may take, and so the longest a run waits for its spans to leave, in milliseconds. */
  readonly timeoutMs: number;
  /** The resource: `service.name` and the rest of `OTEL_RESOURCE_ATTRIBUTES`. */
  readonly resource: Readonly<Record<string, string>>;
}

/** What the environment asks of the exporter: its settings (or none), and what was wrong with it. */
export interface OtlpPlan {
  readonly settings: OtlpSettings | undefined;
  readonly warnings: readonly string[];
}

/** A run's wait for its spans to leave when `OTEL_EXPORTER_OTLP_TIMEOUT` says nothing: a dead collector costs this. */
export const DEFAULT_EXPORT_TIMEOUT_MS = 3_000;
const DEFAULT_ENDPOINT = 'http://localhost:4318';

const value = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
};

/** `OTEL_TRACES_EXPORTER`'s list, lower-cased (`otlp` when unset, as the specification says). */
const exporters = (env: NodeJS.ProcessEnv): string[] =>
  (value(env, 'OTEL_TRACES_EXPORTER') ?? 'otlp')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');

/**
 * Whether the environment asks for spans to be exported: an OTLP endpoint is set (or `OTEL_TRACES_EXPORTER`
 * names `otlp` outright), and neither `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none` says no.
 */
export function exportRequested(env: NodeJS.ProcessEnv): boolean {
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return false;
  const named = exporters(env);
  if (named.includes('none')) return false;
  return (
    value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== undefined ||
    value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') !== undefined ||
    value(env, 'OTEL_TRACES_EXPORTER') !== undefined
  );
}

/** The exporter's settings from the environment, or none (with the reason) when it asks for none or for what mcpc lacks. */
export function otlpPlan(env: NodeJS.ProcessEnv): OtlpPlan {
  if (!exportRequested(env)) return { settings: undefined, warnings: [] };
  const warnings: string[] = [];
  const others = exporters(env).filter((name) => name !== 'otlp');
  if (others.length > 0) warnings.push(`OTEL_TRACES_EXPORTER: mcpc exports over OTLP only, not ${others.join(', ')}`);
  if (!exporters(env).includes('otlp')) return { settings: undefined, warnings };
  const protocol = value(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? value(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  if (protocol !== undefined && protocol !== 'http/json')
    warnings.push(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: mcpc sends OTLP/HTTP JSON (http/json)`);
  const url = tracesUrl(env);
  if (url === undefined) {
    warnings.push('OTEL_EXPORTER_OTLP_ENDPOINT is no http(s) URL: no spans are exported');
    return { settings: undefined, warnings };
  }
  const headers = {
    ...keyValueList(value(env, 'OTEL_EXPORTER_OTLP_HEADERS')),
    ...keyValueList(value(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS')),
  };
  const timeout = Number(value(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT') ?? value(env, 'OTEL_EXPORTER_OTLP_TIMEOUT'));
  const timeoutMs = Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_EXPORT_TIMEOUT_MS;
  return { settings: { url, headers, timeoutMs, resource: resourceAttributes(env) }, warnings };
}

/** The signal's own endpoint as given, or the general one with `v1/traces` appended (the specification's rule). */
function tracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const own = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const base = value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') ?? DEFAULT_ENDPOINT;
  const text = own ?? `${base.replace(/\/+$/, '')}/v1/traces`;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** `key=value,key2=value2` with percent-encoded values (the `OTEL_*_HEADERS` and `OTEL_RESOURCE_ATTRIBUTES` format). */
export function keyValueList(text: string | undefined): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    try {
      entries[decodeURIComponent(key)] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // A malformed escape: the entry is skipped, as the SDKs skip it.
    }
  }
  return entries;
}

/** The resource: `OTEL_RESOURCE_ATTRIBUTES`, its `service.name` replaced by `OTEL_SERVICE_NAME`, `mcpc` by default. */
function resourceAttributes(env: NodeJS.ProcessEnv): Record<string, string> {
  const attributes = keyValueList(value(env, 'OTEL_RESOURCE_ATTRIBUTES'));
  attributes['service.name'] = value(env, 'OTEL_SERVICE_NAME') ?? attributes['service.name'] ?? 'mcpc';
  return attributes;
}
