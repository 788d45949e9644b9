// What a request to a stateless server would be bound to in the caches: its effective `_meta`, and its Authorization.
import type { Transport } from '@mcpc/jsonrpc';
import type { CacheBinding } from '../cache/list-cache.js';
import type { ProtocolEra } from './era.js';
import { StatelessEra } from './stateless.js';

/**
 * The binding of a request made now (stateless servers only; undefined otherwise), with the
 * Authorization it would carry when `needAuth`. A stdio process is one context; a transport that cannot
 * tell (`authorizationKey` absent, or failing) makes private results unshareable (`null`).
 */
export async function cacheBindingOf(
  era: ProtocolEra | undefined,
  kind: string | undefined,
  transport: Transport | undefined,
  needAuth: boolean,
): Promise<CacheBinding | undefined> {
  if (!(era instanceof StatelessEra)) return undefined;
  const meta = JSON.stringify(era.effectiveMeta());
  if (!needAuth) return { meta, auth: undefined };
  if (kind === 'stdio') return { meta, auth: '' };
  if (transport?.authorizationKey === undefined) return { meta, auth: null };
  try {
    return { meta, auth: (await transport.authorizationKey()) ?? '' };
  } catch {
    return { meta, auth: null };
  }
}
