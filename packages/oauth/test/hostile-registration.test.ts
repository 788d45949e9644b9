// Hostile authorization servers (scripted): client registration, client authentication, step-up.
import { describe, expect, it } from 'vitest';
import {
  ClientRegistrationError,
  InsufficientScopeError,
  MemoryStorage,
  OAuthConfigError,
  OAuthProvider,
  OAuthStorageError,
  headlessInteraction,
  storageKey,
  type OAuthStorage,
  type StoredValue,
} from '../src/index.js';
import { callTool, connect, control, recordingLogger, stats } from './helpers.js';
import { REDIRECT, headless, rs, sas, useScriptedStack, type SasStats } from './scripted-stack.js';

useScriptedStack();

describe('client registration', () => {
  it('registers with application_type native for a loopback redirect URI', async () => {
    await headless().authorize();
    const [registration] = (await stats<SasStats>(sas)).registrations;
    expect(registration).toMatchObject({
      application_type: 'native',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
  });

  it.each([
    ['redirect_uris as a string', { redirect_uris: REDIRECT }],
    ['client_secret_expires_at as a string', { client_secret: 'x', client_secret_expires_at: 'never' }],
    ['client_id as a number', { client_id: 42 }],
    ['grant_types as a string', { grant_types: 'authorization_code' }],
    ['an insecure registered redirect URI', { redirect_uris: ['http://app.example/callback'] }],
  ])('refuses a registration response with %s', async (_what, registration) => {
    await control(sas, { registration });
    const storage = new MemoryStorage();
    await expect(headless({ storage }).authorize()).rejects.toBeInstanceOf(ClientRegistrationError);
    expect(storage.get(storageKey.client(rs.url, sas.url))).toBeUndefined();
  });

  it('reads a secret issued without client_secret_expires_at as one that does not expire', async () => {
    // RFC 7591 requires the field with a secret; servers that leave it out mean "never".
    await control(sas, {
      registration: { client_secret: 'dyn-secret', token_endpoint_auth_method: 'client_secret_post' },
    });
    const storage = new MemoryStorage();
    await expect(headless({ storage }).authorize()).resolves.toMatchObject({ tokenType: 'Bearer' });
    expect(storage.get(storageKey.client(rs.url, sas.url))).toMatchObject({
      kind: 'dynamic',
      clientSecret: 'dyn-secret',
      clientSecretExpiresAt: 0,
    });
    expect((await stats<SasStats>(sas)).tokens[0]?.params).toMatchObject({ client_secret: 'dyn-secret' });
  });

  it('prefers pre-registered credentials over a Client ID Metadata Document, and that over registering', async () => {
    await control(sas, { metadata: { client_id_metadata_document_supported: true } });
    const cimd = 'https://conformance-test.local/client-metadata.json';
    const storage = new MemoryStorage();
    await headless({ storage, clientIdMetadataUrl: cimd }).authorize();
    const provider = headless({ storage, clientIdMetadataUrl: cimd });
    await provider.setClientInfo(sas.url, { clientId: 'pre-1' });
    await provider.authorize();
    const s = await stats<SasStats>(sas);
    expect(s.authorizations.map((a) => new Map(a).get('client_id'))).toEqual([cimd, 'pre-1']);
    expect(s.registrations).toHaveLength(0);
  });

  it('never lets a dynamic registration overwrite credentials the host wrote meanwhile', async () => {
    const storage = new MemoryStorage();
    const host = { provider: undefined as OAuthProvider | undefined };
    const fetcher = async (input: string, init: RequestInit) => {
      const response = await fetch(input, init);
      // The host writes pre-registered credentials while the registration is in flight.
      if (input.endsWith('/register')) await host.provider?.setClientInfo(sas.url, { clientId: 'pre-2' });
      return response;
    };
    const provider = headless({ storage, fetch: fetcher });
    host.provider = provider;
    await provider.authorize();
    expect(storage.get(storageKey.client(rs.url, sas.url))).toMatchObject({ kind: 'preregistered', clientId: 'pre-2' });
    expect(new Map((await stats<SasStats>(sas)).authorizations[0]).get('client_id')).toBe('pre-2');
  });

  it('refuses credentials that name no issuer before anything is sent', async () => {
    let sent = 0;
    const make = () =>
      new OAuthProvider({
        serverUrl: rs.url,
        redirectUri: REDIRECT,
        clientInfo: { clientId: 'x', clientSecret: 'y' } as unknown as { issuer: string; clientId: string },
        fetch: async (i, init) => {
          sent++;
          return fetch(i, init);
        },
      });
    expect(make).toThrow(OAuthConfigError);
    expect(sent).toBe(0);
  });

  it('does not send pre-registered credentials to another authorization server', async () => {
    const provider = headless({
      grantType: 'client_credentials',
      clientInfo: { issuer: 'https://other.example', clientId: 'conf-1', clientSecret: 's1' },
    });
    await expect(provider.authorize()).rejects.toBeInstanceOf(ClientRegistrationError);
    const s = await stats<SasStats>(sas);
    expect(s.tokens).toHaveLength(0);
    expect(s.registrations).toHaveLength(0);
  });

  it('raises when a registration the flow needs does not reach storage', async () => {
    class Dropping extends MemoryStorage {
      constructor(readonly drop: (key: string) => boolean) {
        super();
      }
      override set(key: string, value: StoredValue): void {
        if (!this.drop(key)) super.set(key, value);
      }
    }
    const throwing: OAuthStorage = {
      get: () => undefined,
      set: () => Promise.reject(new Error('disk full')),
      delete: () => {},
    };
    for (const storage of [
      new Dropping((k) => k.startsWith('["client"')),
      new Dropping((k) => k.startsWith('["pending"')),
      throwing,
    ]) {
      await expect(headless({ storage }).startAuthorization()).rejects.toBeInstanceOf(OAuthStorageError);
    }
  });
});

describe('client credentials at the scripted server', () => {
  it('chooses the token endpoint auth method from what the server supports', async () => {
    const provider = headless({
      grantType: 'client_credentials',
      clientInfo: { issuer: sas.url, clientId: 'conf-1', clientSecret: 's1' },
    });
    await provider.authorize();
    await control(sas, { metadata: { token_endpoint_auth_methods_supported: ['client_secret_post'] } });
    await headless({
      grantType: 'client_credentials',
      clientInfo: { issuer: sas.url, clientId: 'conf-1', clientSecret: 's1' },
    }).authorize();
    const [basic, post] = (await stats<SasStats>(sas)).tokens;
    expect(basic?.basicAuth).toMatchObject({ id: 'conf-1', secret: 's1' });
    expect(basic?.params.client_secret).toBeUndefined();
    expect(post?.basicAuth).toBeNull();
    expect(post?.params).toMatchObject({
      client_id: 'conf-1',
      client_secret: 's1',
      grant_type: 'client_credentials',
      resource: rs.url,
      scope: 'mcp',
    });
  });
});

describe('client_secret_basic', () => {
  it('form-encodes the credentials as the form serializer does: unreserved characters as they are', async () => {
    await control(sas, { clients: { 'svc-1.a_b*': { secret: 'p w:%+é' } } });
    await headless({
      grantType: 'client_credentials',
      clientInfo: { issuer: sas.url, clientId: 'svc-1.a_b*', clientSecret: 'p w:%+é' },
    }).authorize();
    const [token] = (await stats<SasStats>(sas)).tokens;
    // A server that compares without form-decoding still sees the id it registered.
    expect(token?.basicAuth).toEqual({ id: 'svc-1.a_b*', secret: 'p w:%+é', raw: 'svc-1.a_b*:p+w%3A%25%2B%C3%A9' });
  });
});

describe('scope step-up', () => {
  it('does not authorize again for scope the refused token was already asked with', async () => {
    // The server grants only `mcp`, whatever is asked; the resource wants files:write for write_file.
    await control(sas, { token: { scope: 'mcp' } });
    const provider = headless({ stepUp: 'reauthorize' });
    const engine = await connect(rs.url, provider);
    expect(await callTool(engine, 'echo', { message: 'x' })).toBe('Echo: x');
    // The first refusal is worth one new authorization, asking for files:write too...
    await expect(callTool(engine, 'write_file')).rejects.toThrow();
    const asked = (await stats<SasStats>(sas)).authorizations.map((a) => new Map(a).get('scope'));
    expect(asked).toHaveLength(2);
    expect(asked[1]?.split(' ')).toEqual(expect.arrayContaining(['mcp', 'files:write']));
    // ...but once that was asked and not granted, the same challenge is raised, not answered with another.
    const error = await callTool(engine, 'write_file').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientScopeError);
    expect((error as InsufficientScopeError).scope).toBe('files:write');
    expect((await stats<SasStats>(sas)).authorizations).toHaveLength(2);
  });
});

describe('a conformance-style client', () => {
  it('drives the flow by reading code and iss from Location, with the CIMD client id', async () => {
    await control(sas, { metadata: { client_id_metadata_document_supported: true } });
    const provider = new OAuthProvider({
      serverUrl: rs.url,
      redirectUri: 'http://localhost:3000/callback',
      clientIdMetadataUrl: 'https://conformance-test.local/client-metadata.json',
      interaction: headlessInteraction(),
      logger: recordingLogger(),
    });
    expect(await callTool(await connect(rs.url, provider), 'echo', { message: 'conformance' })).toBe(
      'Echo: conformance',
    );
    const q = new Map((await stats<SasStats>(sas)).authorizations[0]);
    expect(q.get('client_id')).toBe('https://conformance-test.local/client-metadata.json');
    expect(q.get('redirect_uri')).toBe('http://localhost:3000/callback');
  });
});
