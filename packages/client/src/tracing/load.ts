// Finds `@opentelemetry/api` on first connect: the module given, else the installed one (looked for once a process).
import type * as OpenTelemetryApi from '@opentelemetry/api';
import type { OpenTelemetryApiLike } from './options.js';

export type OtelApi = typeof OpenTelemetryApi;

let api: Promise<OtelApi | undefined> | undefined;

/** The API module's named exports; a bundler's CommonJS interop may put them on `default` instead. */
const named = (module: OtelApi): OtelApi => (module.trace === undefined ? module.default : module) as OtelApi;

/** The API module, or undefined when it is not installed or this runtime loads none (looked for once per process). */
function loadApi(): Promise<OtelApi | undefined> {
  api ??= import('#platform')
    .then((platform) => platform.loadOpenTelemetryApi())
    .then(
      (module) => (module === undefined ? undefined : named(module as OtelApi)),
      () => undefined,
    );
  return api;
}

/** The API the client uses: the one given (`tracing.api`), else the installed one; undefined when neither. */
export function openTelemetryApi(given: OpenTelemetryApiLike | undefined): Promise<OtelApi | undefined> {
  return given === undefined ? loadApi() : Promise.resolve(named(given as OtelApi));
}
