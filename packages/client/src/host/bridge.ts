// The host side of one server's connection: the capabilities and request handlers the host registered.
import type { Logger } from '@mcpc/jsonrpc';
import type { ClientOptions } from '../options.js';
import { deriveClientCapabilities } from '../server/capabilities.js';
import type { HostBridge } from '../server/era.js';
import type { Implementation, Root } from '../types/protocol.js';
import { elicitationResponder } from './elicitation.js';
import { samplingResponder } from './sampling.js';

/**
 * The host side of the client for one server's connection: the capabilities the registered handlers
 * declare, and the responders that check the server's requests before the handlers see them.
 */
export function createHostBridge(
  options: ClientOptions,
  context: {
    readonly server: string;
    readonly clientInfo: Implementation;
    readonly logger: Logger;
    readonly roots: () => readonly Root[] | undefined;
  },
): HostBridge {
  const { server, logger } = context;
  const modes = options.elicitationModes ?? ['form'];
  const tools = options.samplingSupportsTools === true;
  const capabilities = deriveClientCapabilities({
    elicitation: options.onElicitation !== undefined,
    elicitationModes: modes,
    sampling: options.onSampling !== undefined,
    samplingSupportsTools: tools,
    roots: context.roots() !== undefined,
  });
  return {
    clientInfo: context.clientInfo,
    capabilities,
    elicit: options.onElicitation && elicitationResponder(options.onElicitation, modes, server, logger),
    sample: options.onSampling && samplingResponder(options.onSampling, tools, server, logger),
    // The roots notice is the connection's to give: it knows the session's revision.
    listRoots: () => ({ roots: context.roots() ?? [] }),
    roots: context.roots,
  };
}
