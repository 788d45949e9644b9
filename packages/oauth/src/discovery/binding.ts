// Which authorization server the MCP server uses now: discovery, the stored binding, metadata per issuer.
import { escapeForLog, safeLog } from '@mcpc/jsonrpc';
import type { ProviderContext } from '../context.js';
import { AuthorizationServerChangedError } from '../errors.js';
import { readBinding, storageKey, toStored, type ResourceBinding } from '../storage/storage.js';
import { defaultEndpoints, legacyResource } from './legacy-discovery.js';
import { probeResourceMetadata } from './probe.js';
import { discoverProtectedResource, type ProtectedResourceMetadata } from './resource-metadata.js';
import { discoverAuthorizationServer, type AuthorizationServerMetadata } from './server-metadata.js';

/** What discovery found: the resource, the authorization server it uses, and that server's metadata. */
export interface Discovered {
  readonly prm: ProtectedResourceMetadata;
  readonly issuer: string;
  readonly as: AuthorizationServerMetadata;
}

/** What RFC 9728 discovery found; `legacy`: nothing anywhere, and the server's origin stands in (MCP 2025-03-26). */
export interface FoundResource {
  readonly prm: ProtectedResourceMetadata;
  readonly legacy: boolean;
}

/** A `Discovered` for a flow already under way, which knows its issuer and resource from its own record. */
export function recorded(issuer: string, resource: string, as: AuthorizationServerMetadata): Discovered {
  return { prm: { resource, authorizationServers: [issuer], scopesSupported: undefined, url: '' }, issuer, as };
}

const MAX_METADATA_AGE_MS = 60 * 60 * 1000;

export class ServerBinding {
  readonly #ctx: ProviderContext;
  readonly #metadata = new Map<string, { readonly as: AuthorizationServerMetadata; readonly at: number }>();
  #binding: ResourceBinding | undefined;
  #lastResourceMetadata: string | undefined;

  constructor(ctx: ProviderContext) {
    this.#ctx = ctx;
  }

  /** The `resource_metadata` URL last discovered from, for discoveries that have no challenge to go by. */
  get lastResourceMetadata(): string | undefined {
    return this.#lastResourceMetadata;
  }

  /** The binding in use: this provider's, else the stored one. */
  async current(): Promise<ResourceBinding | undefined> {
    if (this.#binding !== undefined) return this.#binding;
    const stored = readBinding(await this.#ctx.store.get(storageKey.binding(this.#ctx.serverKey)));
    if (stored !== undefined) this.#binding = stored;
    return stored;
  }

  /** The binding as storage has it now (another provider on the same storage may have moved it). */
  async fresh(): Promise<ResourceBinding | undefined> {
    const stored = readBinding(await this.#ctx.store.get(storageKey.binding(this.#ctx.serverKey)));
    return stored ?? this.#binding;
  }

  async #set(binding: ResourceBinding): Promise<void> {
    this.#binding = binding;
    await this.#ctx.store.set(storageKey.binding(this.#ctx.serverKey), toStored(binding));
  }

  /** A token from a server that stopped being this resource's while the request was in flight is discarded. */
  async assertStillBound(issuer: string): Promise<void> {
    const now = await this.fresh();
    if (now?.issuer !== issuer) {
      safeLog(
        this.#ctx.logger,
        'warn',
        `[mcpc/oauth] discarded a token from ${escapeForLog(issuer)}: ${this.#ctx.serverKey} now uses ${now === undefined ? 'no known server' : escapeForLog(now.issuer)}`,
      );
      throw new AuthorizationServerChangedError(issuer, now?.issuer);
    }
  }

  /**
   * `legacy`: the MCP server's origin as its own (2025-03-26) authorization server, whose default
   * endpoints stand in for metadata it does not publish. Default: what the binding says.
   */
  async metadataFor(issuer: string, signal?: AbortSignal, legacy?: boolean): Promise<AuthorizationServerMetadata> {
    const cached = this.#metadata.get(issuer);
    if (cached !== undefined && Date.now() - cached.at < MAX_METADATA_AGE_MS) return cached.as;
    const binding = await this.current();
    const fallback =
      (legacy ?? (binding?.legacy === true && binding.issuer === issuer)) && issuer === this.#ctx.serverUrl.origin;
    const as = fallback
      ? ((await discoverAuthorizationServer(this.#ctx.settings, issuer, signal, { allowMissing: true })) ??
        defaultEndpoints(issuer))
      : await discoverAuthorizationServer(this.#ctx.settings, issuer, signal);
    this.#metadata.set(issuer, { as, at: Date.now() });
    return as;
  }

  /** `probe`: without a `resource_metadata`, ask the server for a challenge first (not when one was just answered). */
  async discover(resourceMetadata: string | undefined, signal?: AbortSignal, probe = true): Promise<Discovered> {
    const { serverUrl, settings } = this.#ctx;
    const rm = resourceMetadata ?? (probe ? await probeResourceMetadata(settings, serverUrl, signal) : undefined);
    return this.bind(await this.findResource(rm, signal), signal);
  }

  /** RFC 9728 discovery from `resourceMetadata` (else the well-known URLs); none anywhere: a 2025-03-26 server. */
  async findResource(resourceMetadata: string | undefined, signal?: AbortSignal): Promise<FoundResource> {
    const { serverUrl, serverKey, settings } = this.#ctx;
    const found = await discoverProtectedResource(settings, serverUrl, resourceMetadata, signal, {
      allowMissing: true,
    });
    if (resourceMetadata !== undefined) this.#lastResourceMetadata = resourceMetadata;
    // No RFC 9728 metadata anywhere (and no challenge naming any): a 2025-03-26 server, its own authorization server.
    return found === undefined
      ? { prm: legacyResource(serverUrl, serverKey), legacy: true }
      : { prm: found, legacy: false };
  }

  /** The authorization server the resource names that this client uses, its metadata, and the binding recorded. */
  async bind({ prm, legacy }: FoundResource, signal?: AbortSignal): Promise<Discovered> {
    const { serverKey, logger } = this.#ctx;
    const previous = await this.current();
    const issuer = chooseIssuer(prm.authorizationServers, previous, this.#ctx.clients);
    const as = await this.metadataFor(issuer, signal, legacy);
    if (previous?.issuer !== issuer || previous.resource !== prm.resource || (previous.legacy === true) !== legacy) {
      if (previous !== undefined && previous.issuer !== issuer) {
        safeLog(
          logger,
          'info',
          `[mcpc/oauth] ${serverKey} now uses the authorization server ${escapeForLog(issuer)} (was ${escapeForLog(previous.issuer)})`,
        );
      }
      // The previous server's token stays under its own key, for when that server is in use again.
      await this.#set(legacy ? { issuer, resource: prm.resource, legacy: true } : { issuer, resource: prm.resource });
    }
    return { prm, issuer, as };
  }
}

/**
 * RFC 9728 §7.6 leaves the choice to the client: the one in use if still listed, else one we hold
 * credentials for, else the first.
 */
export function chooseIssuer(
  servers: readonly string[],
  previous: ResourceBinding | undefined,
  clients: readonly { readonly issuer: string }[],
): string {
  if (previous !== undefined && servers.includes(previous.issuer)) return previous.issuer;
  const known = servers.find((s) => clients.some((c) => c.issuer === s));
  return known ?? (servers[0] as string);
}
