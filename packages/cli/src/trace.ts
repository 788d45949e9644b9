// `-vv`: every JSON-RPC frame with its payload (capped), and the Mcp-* headers a request goes out with.
import type { ServerConfig, Transport } from '@mcpc/client';
import type { Output } from './output.js';
import { safe } from './output.js';

/** Longest payload a trace line shows, in characters. */
const PAYLOAD_CAP = 2_000;

const payload = (message: unknown): string => safe(JSON.stringify(message), PAYLOAD_CAP);

/** The request headers worth showing: the protocol's own (`Mcp-*`, `MCP-Protocol-Version`). */
function protocolHeaders(headers: Readonly<Record<string, string>> | undefined): string {
  if (headers === undefined) return '';
  const shown = Object.entries(headers).filter(([k]) => /^mcp-/i.test(k));
  return shown.length === 0 ? '' : `  [${shown.map(([k, v]) => `${k}: ${safe(v, 200)}`).join(', ')}]`;
}

/** The transport, with each frame it carries written to `-vv`'s trace. */
function tracedTransport(transport: Transport, out: Output): Transport {
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'start')
        return (sink: Parameters<Transport['start']>[0]) =>
          target.start({
            message: (message, info) => {
              out.debug(`← ${payload(message)}`);
              sink.message(message, info);
            },
            error: (error) => sink.error(error),
            close: (cause) => sink.close(cause),
          });
      if (property === 'send')
        return (message: Parameters<Transport['send']>[0], options?: Parameters<Transport['send']>[1]) => {
          out.debug(`→ ${payload(message)}${protocolHeaders(options?.headers)}`);
          return target.send(message, options);
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The config, whose transports (the fallbacks' too) trace their frames. */
export function traced(config: ServerConfig, out: Output): ServerConfig {
  const { fallback } = config;
  return {
    ...config,
    open: async (context) => tracedTransport(await config.open(context), out),
    ...(fallback !== undefined && {
      fallback: (error: unknown) => {
        const next = fallback(error);
        return next === undefined ? undefined : traced(next, out);
      },
    }),
  };
}
