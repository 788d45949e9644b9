// Node's modules for the parts of this package that need a machine, looked up only when used.
//
// Those parts are a loopback listener, a browser to spawn and a file; importing @mcpc/oauth in a browser or a Worker
// loads none of the modules.
import { OAuthConfigError } from './errors.js';

type BuiltinLookup = (name: string) => unknown;

/** `name` (a `node:` module) from Node, Deno or Bun; a typed error that says why anywhere else. */
export function nodeModule<T>(name: string, needed: string): T {
  const lookup = (globalThis as { process?: { getBuiltinModule?: BuiltinLookup } }).process?.getBuiltinModule;
  const found = lookup?.(name);
  if (found === undefined)
    throw new OAuthConfigError(
      `${needed} needs ${name}, which this runtime does not have (it runs on Node, Deno or Bun)`,
    );
  return found as T;
}
