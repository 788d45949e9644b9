// Which spans are recorded and sampled: `OTEL_TRACES_SAMPLER` / `_ARG`, read as the OpenTelemetry SDK reads them.
import { TraceFlags, isSpanContextValid, isValidTraceId, trace, type Context } from '@opentelemetry/api';

/** A sampler's answer for a new span: `drop` makes a non-recording span (its context still propagates). */
export type Decision = 'drop' | 'sample';

/** Decides from the parent context and the new trace id (the only inputs the standard samplers use). */
export type Sampler = (parent: Context, traceId: string) => Decision;

/** The sampler and what was wrong with the variables (the SDK falls back to its default the same way). */
export interface SamplerPlan {
  readonly sampler: Sampler;
  readonly warnings: readonly string[];
}

export const alwaysOn: Sampler = () => 'sample';
export const alwaysOff: Sampler = () => 'drop';

/**
 * A ratio of traces, decided by the trace id alone (so every process of a trace decides alike): the SDK's
 * arithmetic, the id's four 32-bit words XORed, below `ratio × 0xffffffff`.
 */
export function traceIdRatio(ratio: number): Sampler {
  const bound = ratio >= 1 ? 0x100000000 : ratio <= 0 || Number.isNaN(ratio) ? 0 : Math.floor(ratio * 0xffffffff);
  return (_parent, traceId) => {
    if (!isValidTraceId(traceId)) return 'drop';
    let word = 0;
    for (let i = 0; i < 32; i += 8) word = (word ^ Number.parseInt(traceId.slice(i, i + 8), 16)) >>> 0;
    return word < bound ? 'sample' : 'drop';
  };
}

/** The parent's decision when there is a parent (sampled: on; not: off), `root`'s otherwise. */
export function parentBased(root: Sampler): Sampler {
  return (parent, traceId) => {
    const context = trace.getSpanContext(parent);
    if (context === undefined || !isSpanContextValid(context)) return root(parent, traceId);
    return (context.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? 'sample' : 'drop';
  };
}

const DEFAULT = 'parentbased_always_on';

/** The sampler the environment names; `parentbased_always_on` when it names none, or one mcpc does not know. */
export function samplerFromEnv(env: NodeJS.ProcessEnv): SamplerPlan {
  const warnings: string[] = [];
  const name = env.OTEL_TRACES_SAMPLER?.trim() || DEFAULT;
  const ratio = (): number => {
    const raw = env.OTEL_TRACES_SAMPLER_ARG?.trim();
    const value = raw === undefined || raw === '' ? Number.NaN : Number(raw);
    if (value >= 0 && value <= 1) return value;
    warnings.push(`OTEL_TRACES_SAMPLER_ARG=${raw ?? ''}: a ratio between 0 and 1 is expected; 1 is used`);
    return 1;
  };
  const sampler = ((): Sampler => {
    switch (name) {
      case 'always_on':
        return alwaysOn;
      case 'always_off':
        return alwaysOff;
      case 'traceidratio':
        return traceIdRatio(ratio());
      case 'parentbased_always_off':
        return parentBased(alwaysOff);
      case 'parentbased_traceidratio':
        return parentBased(traceIdRatio(ratio()));
      case DEFAULT:
        return parentBased(alwaysOn);
      default:
        warnings.push(`OTEL_TRACES_SAMPLER=${name}: mcpc does not know this sampler; ${DEFAULT} is used`);
        return parentBased(alwaysOn);
    }
  })();
  return { sampler, warnings };
}
