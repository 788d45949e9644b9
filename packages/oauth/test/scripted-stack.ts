// The scripted authorization servers and a resource server the hostile tests share, started per test file.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { OAuthProvider, headlessInteraction, type OAuthProviderOptions } from '../src/index.js';
import { cleanup, recordingLogger, startResourceServer, startScriptedAs, stopAll, type Fixture } from './helpers.js';

// Against the scripted authorization server: honest by default, and hostile where a test asks — for
// what no real server does.

export interface SasStats {
  metadataHits: string[];
  authorizations: [string, string][][];
  tokens: { params: Record<string, string>; basicAuth: { id: string; secret: string; raw: string } | null }[];
  registrations: Record<string, unknown>[];
}
export interface RsStats {
  requests: { status: number; issuer?: string }[];
  wellKnown: string[];
}

export const REDIRECT = 'http://127.0.0.1/callback';
// Live bindings: set by the hooks `useScriptedStack` registers in the test file that calls it.
export let sas: Fixture;
export let sas2: Fixture;
export let rs: Fixture;

/** Start the stack before the file's tests, reset it after each, and stop it after all. */
export function useScriptedStack(): void {
  beforeAll(async () => {
    sas = await startScriptedAs({ clients: { 'conf-1': { secret: 's1' } } });
    sas2 = await startScriptedAs();
    rs = await startResourceServer({ authorizationServers: [sas.url] });
  });
  afterEach(async () => {
    await cleanup();
    for (const f of [sas, sas2, rs])
      await fetch(new URL('/_reset', f.url), { method: 'POST' }).then((r) => r.arrayBuffer());
  });
  afterAll(stopAll);
}

export const headless = (options: Partial<OAuthProviderOptions> = {}) =>
  new OAuthProvider({
    serverUrl: rs.url,
    redirectUri: REDIRECT,
    scope: 'mcp',
    interaction: headlessInteraction(),
    logger: recordingLogger(),
    ...options,
  });
