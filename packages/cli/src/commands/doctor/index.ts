// `mcpc doctor <target>`: explains a connection step by step, with what to do about each problem.
//
// The steps: target, DNS/TCP/TLS, proxy, redirects, OAuth metadata, detection, era, capabilities.
import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import type { HttpClient } from '@mcpc/http';
import { Client, splitCommandLine, stdio, type Logger, type ServerConfig } from '@mcpc/client';
import { authorizationServerMetadataUrls, parseWwwAuthenticate, wellKnownResourceMetadataUrls } from '@mcpc/oauth';
import { profileName } from '../../auth/paths.js';
import { Profile } from '../../auth/profiles.js';
import type { CliContext } from '../../context.js';
import type { Command } from '../../command.js';
import { configuredServer, discover } from '../../configured.js';
import type { ServerEntry } from '../../discovery/types.js';
import { ExitCode } from '../../exit-codes.js';
import { AmbiguousServerError, UntrustedConfigError, UsageError } from '../../errors.js';
import { classify, needsAuth } from '../../failure.js';
import { clientOptions, configFor } from '../../open.js';
import { safe } from '../../output.js';
import { targetOf, type Target } from '../../target.js';
import { capabilityList } from '../info.js';
import { dnsStep, doctorHttp, getJson, probe, routeStep, tcpStep, tlsStep } from './network.js';
import { Report, messageOf, withTimeout } from './report.js';

// ─── Target ─────────────────────────────────────────────────────────────────────────────────────

async function resolveEntry(ctx: CliContext, target: Target, report: Report): Promise<ServerEntry | undefined> {
  switch (target.kind) {
    case 'url':
      report.step('target', true, `URL ${safe(target.url, 500)} (from the command line)`);
      return { name: new URL(target.url).host, source: 'the command line', url: target.url };
    case 'command': {
      const [command, ...args] = target.argv;
      report.step('target', true, `command \`${safe(target.argv.join(' '), 500)}\` (from the command line)`);
      return { name: command!, source: 'the command line', command: command!, args };
    }
    case 'session':
      report.step('target', false, `${target.text} is a session`);
      report.problem(
        `${target.text} is a session, not a server`,
        `run \`mcpc doctor\` on the server the session was opened for`,
      );
      return undefined;
    case 'name': {
      let found: ServerEntry;
      try {
        found = await configuredServer(ctx, target.name);
      } catch (error) {
        if (error instanceof UntrustedConfigError || error instanceof AmbiguousServerError) {
          // Doctor says what it found, and contacts nothing an untrusted file defines.
          report.step('target', false, safe(error.message, 1_000));
          report.problem(`"${safe(target.name, 100)}" cannot be used as configured`, error.hint);
          return undefined;
        }
        if (!(error instanceof UsageError)) throw error;
        const { servers } = await discover(ctx);
        report.step(
          'target',
          false,
          `no configured server is named "${safe(target.name, 100)}" (${servers.length} configured)`,
        );
        report.problem(
          `"${safe(target.name, 100)}" is not configured`,
          'run `mcpc` to list the configured servers, or give a URL / --stdio "cmd" / --config FILE',
        );
        return undefined;
      }
      const what =
        found.url !== undefined
          ? `URL ${safe(found.url, 500)}`
          : `command \`${safe([found.command, ...(found.args ?? [])].join(' '), 500)}\``;
      report.step('target', true, `"${safe(found.name, 100)}" from ${safe(found.source, 300)}: ${what}`);
      return found;
    }
  }
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The OAuth metadata behind a 401: the challenge, RFC 9728, RFC 8414 / OpenID, and which registration would be used. */
async function oauthSteps(
  ctx: CliContext,
  http: HttpClient,
  url: URL,
  wwwAuthenticate: string | null,
  report: Report,
): Promise<void> {
  const challenges = parseWwwAuthenticate(wwwAuthenticate ?? undefined);
  const bearer = challenges.find((c) => c.scheme === 'bearer' || c.scheme === 'dpop') ?? challenges[0];
  report.step(
    'auth challenge',
    bearer !== undefined,
    wwwAuthenticate === null ? 'HTTP 401 without WWW-Authenticate' : `WWW-Authenticate: ${safe(wwwAuthenticate, 600)}`,
  );
  const tried: string[] = [];
  let prm: Record<string, unknown> | undefined;
  let prmUrl: string | undefined;
  const candidates = [
    ...(bearer?.params.resource_metadata !== undefined ? [bearer.params.resource_metadata] : []),
    ...wellKnownResourceMetadataUrls(url),
  ];
  for (const candidate of candidates) {
    if (!URL.canParse(candidate)) continue;
    const r = await getJson(http, ctx.signal, candidate);
    tried.push(`${safe(candidate, 300)} → ${r.status || 'unreachable'}`);
    if (r.json !== undefined && r.status === 200) {
      prm = r.json;
      prmUrl = candidate;
      break;
    }
  }
  if (prm === undefined) {
    report.step('protected resource metadata', false, `none found (RFC 9728): ${tried.join('; ')}`);
    report.step('authorization server', true, `MCP 2025-03-26 style: ${url.origin} is its own authorization server`);
  } else {
    const servers = list(prm.authorization_servers);
    report.step(
      'protected resource metadata',
      servers.length > 0,
      `${safe(prmUrl, 300)}: resource ${safe(prm.resource, 300)}, authorization servers ${servers.map((s) => safe(s, 300)).join(', ') || 'none'}` +
        (list(prm.scopes_supported).length > 0 ? `, scopes ${safe(list(prm.scopes_supported).join(' '), 300)}` : ''),
    );
    if (servers.length === 0)
      report.problem(
        'the protected resource metadata names no authorization server',
        "the server's OAuth setup is incomplete: tell its operator",
      );
  }
  const issuer = prm === undefined ? url.origin : list(prm.authorization_servers)[0];
  if (issuer !== undefined && URL.canParse(issuer)) {
    const asTried: string[] = [];
    let meta: Record<string, unknown> | undefined;
    let metaUrl: string | undefined;
    for (const candidate of authorizationServerMetadataUrls(issuer)) {
      const r = await getJson(http, ctx.signal, candidate);
      asTried.push(`${safe(candidate, 300)} → ${r.status || 'unreachable'}`);
      if (r.json !== undefined && r.status === 200) {
        meta = r.json;
        metaUrl = candidate;
        break;
      }
    }
    if (meta === undefined) {
      report.step('authorization server metadata', prm === undefined, `none found: ${asTried.join('; ')}`);
      if (prm !== undefined)
        report.problem(
          `no metadata for the authorization server ${safe(issuer, 300)}`,
          'check that the authorization server is up and reachable from here',
        );
    } else {
      const pkce = list(meta.code_challenge_methods_supported).includes('S256');
      report.step(
        'authorization server metadata',
        meta.issuer === issuer && pkce,
        `${safe(metaUrl, 300)}: issuer ${safe(meta.issuer, 300)}${meta.issuer === issuer ? '' : ` (expected ${safe(issuer, 300)})`}, PKCE S256 ${pkce ? 'yes' : 'no'}` +
          (list(meta.scopes_supported).length > 0
            ? `, scopes ${safe(list(meta.scopes_supported).slice(0, 20).join(' '), 400)}`
            : ''),
      );
      const cimd = meta.client_id_metadata_document_supported === true;
      const dcr = typeof meta.registration_endpoint === 'string';
      report.step(
        'registration',
        dcr || cimd,
        dcr
          ? `dynamic client registration at ${safe(meta.registration_endpoint, 300)}${cimd ? ' (client ID metadata documents supported too; mcpc has none)' : ''}`
          : cimd
            ? 'client ID metadata documents only (mcpc has none): pass a pre-registered --client-id'
            : 'neither dynamic registration nor client ID metadata documents: a pre-registered client id is needed',
      );
      if (!dcr)
        report.problem(
          'the authorization server cannot register mcpc',
          'register a client with its operator, then `mcpc login <url> --client-id ID`',
        );
    }
  }
  const profile = new Profile(ctx.env, profileName(ctx));
  const login = await profile.find(url.href).catch(() => undefined);
  report.step(
    'login',
    login !== undefined,
    login === undefined
      ? `profile ${profile.name} has no login for this server`
      : `profile ${profile.name} has a login (${login.grant}${login.issuer ? `, issuer ${safe(login.issuer, 300)}` : ''})`,
  );
  report.problem(
    'the server requires authorization',
    login === undefined
      ? `run \`mcpc login ${url.href}\``
      : `the stored login no longer works: run \`mcpc login ${url.href}\` again`,
  );
}

// ─── Stdio facts ────────────────────────────────────────────────────────────────────────────────

async function onPath(command: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').concat('') : [''];
  const candidates =
    isAbsolute(command) || command.includes('/') || command.includes('\\')
      ? exts.map((e) => command + e)
      : (env.PATH ?? env.Path ?? '')
          .split(delimiter)
          .filter((d) => d !== '')
          .slice(0, 500)
          .flatMap((d) => exts.map((e) => join(d, command + e)));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}

// ─── The client ─────────────────────────────────────────────────────────────────────────────────

function recordingLogger(lines: string[]): Logger {
  const push = (level: string) => (m: string) => {
    if (lines.length < 500) lines.push(`${level}: ${m}`);
  };
  return { debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}

/** Connects the way every command does, recording the client's log; the detection, the era, the capabilities. */
async function connectStep(
  ctx: CliContext,
  config: ServerConfig,
  target: string,
  report: Report,
  stderrTail: () => string,
): Promise<ExitCode> {
  const lines: string[] = [];
  const client = new Client({ ...clientOptions(ctx, config), logger: recordingLogger(lines) });
  const limit = Number(ctx.flags.timeout ?? 15_000) || 15_000;
  try {
    await withTimeout(client.connect(), limit, 'connect');
  } catch (error) {
    const trying = lines.filter((l) => l.includes('trying'));
    if (trying.length > 0)
      report.step('detection', false, trying.map((l) => safe(l.replace(/^debug: /, ''), 400)).join('; '));
    const tail = stderrTail().trim();
    report.step(
      'connect',
      false,
      safe(messageOf(error), 600) + (tail !== '' ? `; server stderr: ${safe(tail.slice(-600), 600)}` : ''),
    );
    await client.close().catch(() => {});
    const { code, hint } = classify(error, target);
    if (needsAuth(error)) return ExitCode.AuthRequired;
    const fix =
      hint === undefined || hint.includes('mcpc doctor') ? 'run the command with -vv to see the protocol' : hint;
    report.problem(`the connection failed: ${safe(error instanceof Error ? error.message : String(error), 300)}`, fix);
    void code;
    return ExitCode.Connect;
  }
  try {
    const server = client.servers[0]!;
    const trying = lines.filter((l) => l.includes('trying'));
    report.step(
      'detection',
      true,
      trying.length === 0
        ? `${server.transportKind} answered the first attempt`
        : `${trying.map((l) => safe(l.replace(/^debug: /, ''), 400)).join('; ')}; connected over ${server.transportKind}`,
    );
    report.step(
      'era',
      true,
      `${server.protocolEra === 'modern' ? 'modern (stateless)' : 'legacy (initialize)'}, protocol ${server.protocolVersion}, server ${safe(server.serverInfo.name, 200)} ${safe(server.serverInfo.version, 100)}`,
    );
    const capabilities = server.capabilities as Record<string, unknown>;
    report.step('capabilities', true, capabilityList(capabilities).join(', ') || 'none');
    if (capabilities.tools !== undefined) {
      try {
        const tools = await withTimeout(client.listTools(), limit, 'tools/list');
        report.step('tools', true, `${tools.length} tool${tools.length === 1 ? '' : 's'}`);
      } catch (error) {
        report.step('tools', false, safe(messageOf(error), 400));
        report.problem('tools/list failed', 'run `mcpc <target> tools -vv` to see the exchange');
      }
    }
    return ExitCode.Ok;
  } finally {
    await client.close().catch(() => {});
  }
}

async function diagnose(ctx: CliContext, words: readonly string[], report: Report): Promise<ExitCode> {
  if (words.length > 1) throw new UsageError('`doctor` takes one target', 'doctor');
  const trailing = ctx.trailing ?? [];
  if (words.length === 0 && ctx.flags.stdio === undefined && trailing.length === 0)
    throw new UsageError('`doctor` needs a target: a URL, --stdio "cmd" or a configured name', 'doctor');
  const target = targetOf(words[0], { flags: ctx.flags, words: [], trailing }, splitCommandLine);
  const entry = await resolveEntry(ctx, target, report);
  if (entry === undefined) return ExitCode.Connect;

  if (entry.command !== undefined) {
    const found = await onPath(entry.command, { ...ctx.env, ...entry.env });
    report.step(
      'command',
      found !== undefined,
      found ??
        `\`${safe(entry.command, 200)}\` is not on PATH (${(ctx.env.PATH ?? '').split(delimiter).filter(Boolean).length} directories searched)`,
    );
    if (found === undefined) {
      report.problem(`\`${safe(entry.command, 200)}\` is not on PATH`, 'install it, or give its full path');
      return ExitCode.Connect;
    }
    let tail = '';
    const config = stdio({
      name: entry.name,
      command: entry.command,
      ...(entry.args !== undefined && { args: entry.args }),
      ...(entry.env !== undefined && { env: entry.env }),
      ...(entry.cwd !== undefined && { cwd: entry.cwd }),
      onStderr: (chunk) => {
        tail = (tail + chunk).slice(-4_000);
      },
    });
    return connectStep(ctx, config, target.text, report, () => tail);
  }

  // Every step goes the way the transport will: through the proxy the environment names, if any.
  const route = await routeStep(new URL(entry.url!), ctx.env, report);
  if (route === undefined) return ExitCode.Connect;
  if (route.httpsProxy === undefined) {
    if (!(await dnsStep(route, report))) return ExitCode.Connect;
    if (!(await tcpStep(route, report))) return ExitCode.Connect;
    if (route.url.protocol === 'https:' && !(await tlsStep(route, report))) return ExitCode.Connect;
  }
  const config = await configFor(ctx, entry);
  const http = doctorHttp(ctx.env);
  try {
    const answer = await probe(http, ctx.signal, route, { ...entry.headers }, report);
    // The connection would wait on the same silent proxy: said once is enough.
    if (answer === 'silent proxy') return ExitCode.Connect;
    let auth = false;
    if (answer?.status === 401 || answer?.status === 403) {
      auth = true;
      await oauthSteps(ctx, http, answer.url, answer.wwwAuthenticate, report);
    }
    const code = await connectStep(ctx, config, target.text, report, () => '');
    if (code === ExitCode.AuthRequired && !auth) await oauthSteps(ctx, http, route.url, null, report);
    return code;
  } finally {
    await http.close();
  }
}

export const doctor: Command = {
  async run(ctx, words) {
    const report = new Report();
    const code = await diagnose(ctx, words, report);
    const target = words[0] ?? ctx.flags.stdio ?? (ctx.trailing ?? []).join(' ');
    ctx.out.result({ target, steps: report.steps, problems: report.problems }, (r) => {
      const { out } = ctx;
      const mark = (ok: boolean) =>
        out.tty ? (ok ? out.style('green', '✓') : out.style('red', '✗')) : ok ? 'ok  ' : 'fail';
      for (const s of r.steps) out.line(`${mark(s.ok)} ${s.name}: ${s.detail}`);
      if (r.problems.length === 0) out.line(code === ExitCode.Ok ? 'no problems found' : '');
      for (const p of r.problems) out.line(`${out.tty ? out.style('yellow', '→') : 'fix:'} ${p.problem} — ${p.fix}`);
    });
    return code;
  },
};
