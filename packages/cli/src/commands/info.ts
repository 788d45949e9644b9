// `mcpc <target> [info]`: who the server is and what it offers.
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { safe } from '../output.js';

/** The capability names a server declared, with their flags (`resources (subscribe, listChanged)`). */
export function capabilityList(capabilities: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(capabilities)
    .filter(([key, value]) => value !== undefined && value !== false && key !== 'extensions' && key !== 'experimental')
    .map(([key, value]) => {
      const flags =
        typeof value === 'object' && value !== null
          ? Object.entries(value as Record<string, unknown>)
              .filter(([, v]) => v !== false && v !== undefined)
              .map(([k]) => k)
          : [];
      return flags.length === 0 ? key : `${key} (${flags.join(', ')})`;
    });
}

export const info: Command = {
  async run(ctx, _words, connection) {
    const { server } = connection!;
    const capabilities = server.capabilities as Record<string, unknown>;
    const extensions = Object.keys((capabilities.extensions as Record<string, unknown> | undefined) ?? {});
    const facts = {
      name: server.name,
      serverInfo: server.serverInfo,
      protocolVersion: server.protocolVersion,
      era: server.protocolEra,
      transport: server.transportKind,
      capabilities,
      extensions,
      instructions: server.instructions,
    };
    ctx.out.result(facts, (f) => {
      const { out } = ctx;
      const title = (f.serverInfo as { title?: string }).title;
      out.line(
        `${out.style('bold', safe(f.serverInfo.name, 200))} ${safe(f.serverInfo.version, 100)}${title ? ` — ${safe(title, 200)}` : ''}`,
      );
      out.line(
        `protocol:     ${f.protocolVersion} (${f.era === 'modern' ? 'modern, stateless' : 'legacy, initialize'})`,
      );
      out.line(`transport:    ${f.transport}`);
      out.line(`capabilities: ${capabilityList(f.capabilities).join(', ') || 'none'}`);
      if (f.extensions.length > 0) out.line(`extensions:   ${f.extensions.map((e) => safe(e, 200)).join(', ')}`);
      if (f.instructions !== undefined) {
        out.line('instructions:');
        for (const line of safe(f.instructions, 8_000).split('\n')) out.line(`  ${line}`);
      }
    });
    return ExitCode.Ok;
  },
};
