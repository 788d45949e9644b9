// BrowserOAuth: the loopback redirect listener and the system browser, for interactive authorization.
import type * as ChildProcess from 'node:child_process';
import type * as Http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AbortError, safeLog, warningsToConsole, type Logger } from '@mcpc/jsonrpc';
import { AuthorizationResponseError, AuthorizationTimeoutError, OAuthConfigError, OAuthError } from './errors.js';
import type { AuthorizationInteraction, PreparedInteraction } from './interaction.js';
import { classifyHost } from './discovery/url-policy.js';
import { nodeModule } from './node-modules.js';

export interface BrowserOAuthOptions {
  /**
   * How the authorization URL is visited. Default: the system browser (`open`, `xdg-open`, or the
   * Windows URL handler). A test or a headless host drives the flow here instead.
   */
  readonly openUrl?: (url: URL, signal: AbortSignal) => void | Promise<void>;
  /** How long to wait for the redirect back (300 000 ms). */
  readonly timeoutMs?: number;
  /** The page shown after a successful redirect (a small default). */
  readonly successHtml?: string;
  /** The page shown when the redirect carries an error or is refused. It never shows the server's error text. */
  readonly failureHtml?: string;
  readonly logger?: Logger;
}

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  '<style>body{font:16px system-ui,sans-serif;margin:4rem auto;max-width:32rem;text-align:center;color:#222}</style></head>' +
  `<body><h1>${title}</h1><p>${text}</p></body></html>`;

const SUCCESS = page('Authorization complete', 'You can close this window and return to the application.');
const FAILURE = page('Authorization failed', 'Return to the application for details. You can close this window.');

/** Open a URL in the system browser, without a shell. Rejects when no opener could be started. */
export function openSystemBrowser(url: URL): Promise<void> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return Promise.reject(new OAuthError(`refusing to open a ${url.protocol} URL`));
  const { spawn } = nodeModule<typeof ChildProcess>('node:child_process', 'opening the system browser');
  const platform = (globalThis as { process?: { platform?: string } }).process?.platform;
  const [command, args] =
    platform === 'darwin'
      ? ['open', [url.href]]
      : platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url.href]]
        : ['xdg-open', [url.href]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.once('error', (e) =>
      reject(new OAuthError(`could not open a browser (${command}): ${e.message}`, { cause: e })),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  res.end(html);
}

/**
 * The interactive authorization code flow for desktop and CLI hosts: a one-shot callback listener on
 * the loopback interface (the redirect URI's port, or an ephemeral one when it names none), the
 * authorization URL opened in the system browser (or through `openUrl`), a small page once the
 * redirect arrives, and a clean timeout. Pass it as the provider's `interaction`.
 */
export class BrowserOAuth implements AuthorizationInteraction {
  readonly #options: BrowserOAuthOptions;

  constructor(options: BrowserOAuthOptions = {}) {
    this.#options = options;
  }

  async prepare({
    redirectUri,
    signal,
  }: {
    readonly redirectUri: string;
    readonly signal?: AbortSignal | undefined;
  }): Promise<PreparedInteraction> {
    const configured = new URL(redirectUri);
    if (configured.protocol !== 'http:' || classifyHost(configured.hostname) !== 'loopback') {
      throw new OAuthConfigError(
        `BrowserOAuth listens on the loopback interface: the redirect URI must be http://127.0.0.1…, http://[::1]… or http://localhost… (got ${redirectUri})`,
      );
    }
    const host = configured.hostname.replace(/^\[|\]$/g, '');
    const logger = this.#options.logger ?? warningsToConsole;
    let expectedState: string | undefined;
    let settle: { resolve: (u: URL) => void; reject: (e: unknown) => void } | undefined;
    const arrived = new Promise<URL>((resolve, reject) => (settle = { resolve, reject }));
    arrived.catch(() => {});
    let done = false;
    // Filled in once the listener has its port; requests cannot arrive before that.
    const bound = { url: configured };

    const handle = (req: IncomingMessage, res: ServerResponse) => {
      const target = new URL(req.url ?? '/', bound.url);
      if (req.method !== 'GET' || target.pathname !== configured.pathname || done) {
        send(res, 404, page('Not found', 'Nothing here.'));
        return;
      }
      const params = target.searchParams;
      const names = [...params.keys()];
      const repeated = names.find((n, i) => names.indexOf(n) !== i);
      if (repeated !== undefined) {
        done = true;
        send(res, 400, this.#options.failureHtml ?? FAILURE);
        settle?.reject(
          new AuthorizationResponseError(
            'repeated-parameter',
            `the redirect repeats the parameter ${JSON.stringify(repeated.slice(0, 40))}; refused`,
          ),
        );
        return;
      }
      // A stray redirect (an old tab, another flow) cannot end this one.
      if (expectedState === undefined || params.get('state') !== expectedState) {
        send(res, 400, page('Unknown request', 'This authorization request is not the one in progress.'));
        return;
      }
      done = true;
      send(
        res,
        params.has('code') && !params.has('error') ? 200 : 400,
        params.has('code') && !params.has('error')
          ? (this.#options.successHtml ?? SUCCESS)
          : (this.#options.failureHtml ?? FAILURE),
      );
      settle?.resolve(target);
    };

    const { createServer } = nodeModule<typeof Http>('node:http', 'the loopback redirect listener');
    const server = createServer(handle);
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port: configured.port === '' ? 0 : Number(configured.port) }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const actual = new URL(configured.href);
    actual.port = String(port);
    bound.url = actual;
    const close = async () => {
      done = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    };
    if (signal?.aborted === true) {
      await close();
      throw new AbortError(undefined, signal.reason);
    }

    return {
      redirectUri: actual.href,
      complete: async (authorizationUrl, { state, signal: callSignal }) => {
        expectedState = state;
        const timeoutMs = this.#options.timeoutMs ?? 300_000;
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(new AuthorizationTimeoutError(timeoutMs)), timeoutMs);
        const signals = [
          controller.signal,
          ...(signal === undefined ? [] : [signal]),
          ...(callSignal === undefined ? [] : [callSignal]),
        ];
        const any = AbortSignal.any(signals);
        const aborted = new Promise<never>((_, reject) => {
          const fail = () =>
            reject(
              any.reason instanceof AuthorizationTimeoutError ? any.reason : new AbortError(undefined, any.reason),
            );
          if (any.aborted) fail();
          else any.addEventListener('abort', fail, { once: true });
        });
        aborted.catch(() => {});
        try {
          const opener = this.#options.openUrl ?? ((url: URL) => openSystemBrowser(url));
          const opened = Promise.resolve()
            .then(() => opener(authorizationUrl, any))
            .catch((e: unknown) => {
              if (this.#options.openUrl === undefined) {
                // No browser could be started: the user can still open the URL by hand.
                safeLog(
                  logger,
                  'warn',
                  `[mcpc/oauth] ${e instanceof Error ? e.message : String(e)}; open this URL to authorize: ${authorizationUrl.href}`,
                );
                return;
              }
              throw e;
            });
          return await Promise.race([arrived, aborted, opened.then(() => Promise.race([arrived, aborted]))]);
        } finally {
          clearTimeout(timer);
          controller.abort();
        }
      },
      close,
    };
  }
}
