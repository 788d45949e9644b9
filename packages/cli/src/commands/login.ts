// `mcpc login` / `mcpc logout`: OAuth sign-in for a server, with the tokens kept per profile.
//
// Sign-in is by browser and loopback callback, or with client credentials.
import { AuthorizationDeniedError, OAuthProvider, type AuthorizationResult } from '@mcpc/oauth';
import { challengedScope } from '../auth/challenge.js';
import { proxiedFetch } from '../auth/fetch.js';
import { LoginInteraction } from '../auth/interaction.js';
import { envCredentials, type MachineCredentials } from '../auth/keys.js';
import { profileName } from '../auth/paths.js';
import { canonicalUrl, Profile } from '../auth/profiles.js';
import { discoverIssuer, machineProvider, REDIRECT_URI } from '../auth/provider.js';
import { cliLogger } from '../log.js';
import type { CliContext } from '../context.js';
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { CliError, UsageError } from '../errors.js';
import { safe } from '../output.js';

function urlWord(words: readonly string[], command: string): string {
  if (words.length !== 1) throw new UsageError(`\`${command}\` takes one server URL`, command);
  const url = words[0]!;
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
    throw new UsageError(`"${url}" is not an http(s) URL: \`${command}\` is for servers reached over HTTP`, command);
  return url;
}

/** Client credentials from the flags, else the environment (MCPC_CLIENT_ID, MCPC_CLIENT_SECRET, MCPC_PRIVATE_KEY_FILE). */
function machineCredentials(ctx: CliContext): MachineCredentials | undefined {
  const { flags } = ctx;
  if (flags['client-secret'] !== undefined && flags['private-key'] !== undefined)
    throw new UsageError('give --client-secret or --private-key, not both', 'login');
  if (flags['client-secret'] !== undefined || flags['private-key'] !== undefined) {
    const clientId = flags['client-id'] ?? ctx.env.MCPC_CLIENT_ID;
    if (!clientId)
      throw new UsageError('--client-secret and --private-key need --client-id (or MCPC_CLIENT_ID)', 'login');
    return flags['private-key'] !== undefined
      ? { clientId, privateKeyFile: flags['private-key'] }
      : { clientId, clientSecret: flags['client-secret']! };
  }
  if (flags['client-id'] !== undefined) return undefined; // a public client id for the browser flow
  return envCredentials(ctx.env);
}

export const login: Command = {
  async run(ctx, words) {
    const url = urlWord(words, 'login');
    const profile = new Profile(ctx.env, profileName(ctx));
    const scope = ctx.flags.scope;
    const machine = machineCredentials(ctx);
    const logger = cliLogger(ctx);
    let provider: OAuthProvider;
    let issuer: string | undefined;
    let clientId: string | undefined;
    if (machine !== undefined) {
      issuer = await discoverIssuer(ctx, url, profile.storage);
      provider = await machineProvider(ctx, url, issuer, machine, profile.storage, scope);
      clientId = machine.clientId;
    } else {
      const publicId = ctx.flags['client-id'];
      if (publicId !== undefined) {
        issuer = await discoverIssuer(ctx, url, profile.storage);
        clientId = publicId;
      }
      provider = new OAuthProvider({
        serverUrl: url,
        redirectUri: REDIRECT_URI,
        storage: profile.storage,
        interaction: new LoginInteraction(ctx, ctx.flags['no-browser'] === true),
        logger,
        ...(scope !== undefined && { scope }),
        ...(issuer !== undefined && publicId !== undefined && { clientInfo: { issuer, clientId: publicId } }),
        ...proxiedFetch(ctx),
      });
      // Kept in the profile, so a later non-interactive refresh uses the same client.
      if (issuer !== undefined && publicId !== undefined) await provider.setClientInfo(issuer, { clientId: publicId });
    }
    // The scope: --scope, else the server's own challenge, else (in the provider) its scopes_supported.
    const challenged = scope === undefined && machine === undefined ? await challengedScope(ctx, url) : undefined;
    let result: AuthorizationResult;
    try {
      result = await provider.authorize({ signal: ctx.signal, ...(challenged !== undefined && { scope: challenged }) });
    } catch (error) {
      if (error instanceof AuthorizationDeniedError)
        throw new CliError(
          safe(error.message, 500),
          ExitCode.AuthRequired,
          scope === undefined
            ? 'the server may need a scope: try `--scope "<scopes>"` (`mcpc doctor <url>` lists those it advertises)'
            : 'check the --scope asked for, and that the account may use this server',
        );
      throw error;
    }
    if (machine?.clientSecret !== undefined)
      await provider.setClientInfo(result.issuer, { clientId: machine.clientId, clientSecret: machine.clientSecret });
    await profile.record({
      url: canonicalUrl(url),
      issuer: result.issuer,
      grant: machine === undefined ? 'authorization_code' : 'client_credentials',
      ...(clientId !== undefined && { clientId }),
      ...(machine?.privateKeyFile !== undefined && { privateKeyFile: machine.privateKeyFile }),
      ...(scope !== undefined && { scope }),
      at: Date.now(),
    });

    // One request proves it: connect with the stored login (no prompts) and list the tools.
    const { openConnection } = await import('../open.js');
    const connection = await openConnection(ctx, { kind: 'url', url, text: url });
    let tools: number;
    try {
      tools = (await connection.client.listTools()).length;
    } finally {
      await connection.client.close();
    }
    const scopes = result.scope?.split(' ').filter((s) => s !== '');
    const value = {
      url,
      profile: profile.name,
      issuer: result.issuer,
      ...(scopes !== undefined && scopes.length > 0 && { scopes }),
      ...(result.expiresAt !== undefined && { expiresAt: result.expiresAt.toISOString() }),
      refreshable: result.refreshable,
      tools,
    };
    ctx.out.result(value, (v) => {
      ctx.out.line(`logged in to ${safe(v.url, 500)} (profile ${v.profile})`);
      ctx.out.note(
        `issuer ${safe(v.issuer, 500)}` +
          (v.scopes ? `, scopes: ${safe(v.scopes.join(' '), 500)}` : '') +
          (v.expiresAt ? `, token valid until ${v.expiresAt}` : '') +
          (v.refreshable ? ', refreshable' : '') +
          `; ${v.tools} tool${v.tools === 1 ? '' : 's'}`,
      );
    });
    return ExitCode.Ok;
  },
};

export const logout: Command = {
  async run(ctx, words) {
    const profile = new Profile(ctx.env, profileName(ctx));
    if (ctx.flags.all === true) {
      if (words.length > 0) throw new UsageError('`logout --all` takes no URL', 'logout');
      await profile.remove();
      ctx.out.result({ profile: profile.name, all: true }, () =>
        ctx.out.line(`logged out of every server (profile ${profile.name} removed)`),
      );
      return ExitCode.Ok;
    }
    const url = urlWord(words, 'logout');
    const removed = await profile.forget(url);
    ctx.out.result({ url, profile: profile.name, removed }, () =>
      ctx.out.line(
        removed
          ? `logged out of ${safe(url, 500)} (profile ${profile.name})`
          : `no login for ${safe(url, 500)} in profile ${profile.name}`,
      ),
    );
    return ExitCode.Ok;
  },
};
