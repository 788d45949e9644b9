// `mcpc doctor <target>`: explains a connection step by step (target, DNS/TCP/TLS, proxy, redirects, OAuth metadata, detection, era, capabilities) with what to do per problem.
import { lookup } from 'node:dns/promises';
import { access, constants } from 'node:fs/promises';
import { connect as netConnect } from 'node:net';
import { delimiter, isAbsolute, join } from 'node:path';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';
import { Client, splitCommandLine, stdio, type Logger, type ServerConfig } from '@mcpc/client';
import { authorizationServerMetadataUrls, parseWwwAuthenticate, wellKnownResourceMetadataUrls } from '@mcpc/oauth';
import { profileName } from '../auth/paths.js';
import { Profile } from '../auth/profiles.js';
import type { CliContext, Command } from '../context.js';
import { discover } from '../configured.js';
import type { ServerEntry } from '../discovery/types.js';
import { ExitCode, UsageError } from '../exit.js';
import { classify, needsAuth } from '../failure.js';
import { clientOptions, configFor } from '../open.js';
import { safe } from '../output.js';
import { targetOf, type Target } from '../target.js';
import { capabilityList } from './info.js';

interface Step {
  name: string;
  ok: boolean;
  detail: string;
}
interface Problem {
  problem: string;
  fix: string;
}

/** One network step's time limit. */
const STEP_MS = 5_000;
/** Redirect hops followed at most. */
const MAX_HOPS = 5;

class Report {
  readonly steps: Step[] = [];
  readonly problems: Problem[] = [];
  step(name: string, ok: boolean, detail: string): void {
    this.steps.push({ name, ok, detail });
  }
  problem(problem: string, fix: string): void {
    if (!this.problems.some((p) => p.problem === problem)) this.problems.push({ problem, fix });
  }
}

const messageOf = (e: unknown): string =>
  e instanceof Error
    ? `${(e as { code?: string }).code ? `${(e as { code?: string }).code}: ` : ''}${e.message}`
    : String(e);

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

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
      const { servers } = await discover(ctx);
      const found = servers.find((s) => s.name === target.name);
      if (found === undefined) {
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

// ─── URL facts ──────────────────────────────────────────────────────────────────────────────────

/** The proxy the environment names for `url`, and why (NO_PROXY match, none set). */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): { proxy?: string; detail: string } {
  const pick = (...names: string[]) => {
    for (const n of names) if (env[n]) return { name: n, value: env[n]! };
    return undefined;
  };
  const https = url.protocol === 'https:';
  const set = https
    ? pick('HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy')
    : pick('HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy');
  if (set === undefined) return { detail: `no ${https ? 'HTTPS_PROXY' : 'HTTP_PROXY'} set: direct` };
  const masked = set.value.replace(/\/\/[^@/]*@/, '//***@');
  const no = pick('NO_PROXY', 'no_proxy');
  if (no !== undefined) {
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const port = url.port || (https ? '443' : '80');
    for (const raw of no.value.split(/[\s,]+/)) {
      const entry = raw.trim().toLowerCase();
      if (entry === '') continue;
      if (entry === '*') return { detail: `${no.name}=* : direct (${set.name} not used)` };
      const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(entry);
      const pattern = (m?.[1] ?? entry).replace(/^\[|\]$/g, '');
      const entryPort = m?.[2];
      if (entryPort !== undefined && entryPort !== port) continue;
      const bare = pattern.replace(/^\*?\./, '');
      if (host === bare || host.endsWith(`.${bare}`))
        return { detail: `${no.name} matches ${safe(raw, 100)}: direct (${set.name} not used)` };
    }
  }
  return { proxy: masked, detail: `${set.name}=${safe(masked, 300)} applies to this URL` };
}

async function dnsStep(url: URL, report: Report): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  try {
    const addresses = await withTimeout(lookup(host, { all: true }), STEP_MS, 'DNS');
    report.step('dns', true, `${safe(host, 200)} → ${addresses.map((a) => a.address).join(', ')}`);
    return true;
  } catch (error) {
    report.step('dns', false, `${safe(host, 200)}: ${safe(messageOf(error), 300)}`);
    report.problem(`the host ${safe(host, 200)} does not resolve`, 'check the URL for a typo, or your DNS / VPN');
    return false;
  }
}

function tcpStep(url: URL, report: Report): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = netConnect({ host, port });
    const timer = setTimeout(() => socket.destroy(new Error(`no answer in ${STEP_MS} ms`)), STEP_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      const address = `${socket.remoteAddress}:${socket.remotePort}`;
      socket.destroy();
      report.step('tcp', true, `connected to ${address} in ${Date.now() - started} ms`);
      resolve(true);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      report.step('tcp', false, `${safe(host, 200)}:${port}: ${safe(messageOf(error), 300)}`);
      report.problem(
        `nothing accepts connections on ${safe(host, 200)}:${port}`,
        "start the server (or check the URL's host and port), then run `mcpc doctor` again",
      );
      resolve(false);
    });
  });
}

function certName(part: PeerCertificate['subject'] | undefined): string {
  if (part === undefined) return '?';
  const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);
  return one(part.CN) ?? one(part.O) ?? '?';
}

function tlsStep(url: URL, report: Report): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 443);
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host,
      port,
      servername: /^[\d.:]+$/.test(host) ? undefined : host,
      ALPNProtocols: ['http/1.1'],
    });
    const timer = setTimeout(() => socket.destroy(new Error(`no TLS handshake in ${STEP_MS} ms`)), STEP_MS);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const cert = socket.getPeerCertificate();
      const detail =
        `${socket.getProtocol() ?? 'TLS'}, certificate for ${safe(certName(cert.subject), 200)} issued by ${safe(certName(cert.issuer), 200)}, ` +
        `valid until ${cert.valid_to ?? '?'}`;
      socket.destroy();
      report.step('tls', true, detail);
      resolve(true);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      const code = (error as { code?: string }).code ?? '';
      report.step('tls', false, safe(messageOf(error), 400));
      report.problem(
        `the TLS handshake with ${safe(host, 200)}:${port} failed (${safe(code || error.message, 200)})`,
        /CERT|SELF_SIGNED|UNABLE_TO/.test(code)
          ? "the certificate is not trusted: add its CA with NODE_EXTRA_CA_CERTS=ca.pem (or fix the server's chain)"
          : 'check that the port speaks HTTPS (http:// for a plain server)',
      );
      resolve(false);
    });
  });
}

/** POST initialize, following redirects (at most 5), as a plain request: the hops, and the last response. */
async function probe(
  ctx: CliContext,
  url: URL,
  headers: Record<string, string>,
  report: Report,
): Promise<{ status: number; headers: Headers; url: URL } | undefined> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcpc-doctor', version: '0' } },
  });
  const hops: string[] = [];
  let current = url;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), STEP_MS);
    let res: Response;
    try {
      res = await fetch(current, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.any([abort.signal, ctx.signal]),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...headers,
        },
        body,
      });
    } catch (error) {
      clearTimeout(timer);
      report.step(
        'http',
        false,
        `POST ${safe(current.href, 300)}: ${safe(messageOf((error as Error).cause ?? error), 300)}`,
      );
      return undefined;
    } finally {
      clearTimeout(timer);
    }
    await res.body?.cancel().catch(() => {});
    const type = res.headers.get('content-type')?.split(';')[0] ?? 'no body type';
    hops.push(`POST ${safe(current.href, 300)} → ${res.status} (${safe(type, 60)})`);
    const session = res.headers.get('mcp-session-id');
    if (session !== null)
      // Polite: the probe's own session is closed at once.
      void fetch(current, { method: 'DELETE', headers: { 'mcp-session-id': session, ...headers } })
        .then((r) => r.body?.cancel())
        .catch(() => {});
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location !== null && hop < MAX_HOPS) {
      current = new URL(location, current);
      continue;
    }
    const redirected = hops.length > 1;
    report.step('http', res.status < 500, hops.join('; '));
    if (redirected) {
      report.problem(
        `the URL redirects (${hops.length - 1} hop${hops.length > 2 ? 's' : ''})`,
        `use the final URL: ${safe(current.href, 300)}`,
      );
    }
    if (res.status === 404 || res.status === 405)
      report.problem(
        `POST ${safe(current.href, 300)} answers ${res.status}: no MCP endpoint at this path`,
        'check the URL path (servers commonly use /mcp, or /sse for the older transport)',
      );
    if (res.status >= 300 && res.status < 400)
      report.problem(`more than ${MAX_HOPS} redirects`, 'the URL redirects in a loop: check the server URL');
    return { status: res.status, headers: res.headers, url: current };
  }
  return undefined;
}

async function getJson(ctx: CliContext, url: string): Promise<{ status: number; json?: Record<string, unknown> }> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), STEP_MS);
  try {
    const res = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.any([abort.signal, ctx.signal]),
      headers: { accept: 'application/json' },
    });
    const text = await res.text();
    if (!res.ok) return { status: res.status };
    try {
      const json: unknown = JSON.parse(text.slice(0, 1024 * 1024));
      return typeof json === 'object' && json !== null && !Array.isArray(json)
        ? { status: res.status, json: json as Record<string, unknown> }
        : { status: res.status };
    } catch {
      return { status: res.status };
    }
  } catch (error) {
    return { status: 0, json: { error: messageOf(error) } as Record<string, unknown> };
  } finally {
    clearTimeout(timer);
  }
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The OAuth metadata behind a 401: the challenge, RFC 9728, RFC 8414 / OpenID, and which registration would be used. */
async function oauthSteps(ctx: CliContext, url: URL, wwwAuthenticate: string | null, report: Report): Promise<void> {
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
    const r = await getJson(ctx, candidate);
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
      const r = await getJson(ctx, candidate);
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

  const url = new URL(entry.url!);
  const proxy = proxyFor(url, ctx.env);
  report.step('proxy', true, proxy.detail);
  if (!(await dnsStep(url, report))) return ExitCode.Connect;
  if (!(await tcpStep(url, report))) return ExitCode.Connect;
  if (url.protocol === 'https:' && !(await tlsStep(url, report))) return ExitCode.Connect;
  const config = await configFor(ctx, entry);
  const headers = { ...entry.headers };
  const answer = await probe(ctx, url, headers, report);
  let auth = false;
  if (answer?.status === 401 || answer?.status === 403) {
    auth = true;
    await oauthSteps(ctx, answer.url, answer.headers.get('www-authenticate'), report);
  }
  const code = await connectStep(ctx, config, target.text, report, () => '');
  if (code === ExitCode.AuthRequired && !auth) await oauthSteps(ctx, url, null, report);
  return code;
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
