// The OAuth debugger: runs of @mcpc/oauth/steps walked one step at a time for the page, and the redirect back to them.
// @ts-check
import { randomUUID } from 'node:crypto';
import { MemoryStorage } from '@mcpc/oauth';
import { OAuthStepError, OAuthSteps } from '@mcpc/oauth/steps';
import { ISS_CHECK, RULES, STEPS } from './oauth-debugger/rules.mjs';
import { StepFailure, steps } from './oauth-debugger/steps.mjs';

const MAX_RUNS = 20;
const RUN_TTL_MS = 60 * 60_000;

/**
 * @typedef {import('./oauth-debugger/steps.mjs').Exchange} Exchange
 * @typedef {import('./oauth-debugger/steps.mjs').OAuthStep} OAuthStep
 * @typedef {import('./oauth-debugger/steps.mjs').Run} Run
 * @typedef {{ url: string, scope?: string, clientId?: string, clientSecret?: string, dpop?: 'auto' | 'on' | 'off' | boolean }} OAuthRunBody
 * @typedef {object} OAuthDebugger
 * @property {(body: unknown) => Promise<string>} start begins a run (no step runs yet); resolves with its id
 * @property {(runId: string) => Promise<void>} continue runs the next step (the `iss` check waits for the redirect, at most 5 minutes)
 * @property {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void} callback
 *   answers GET /oauth/callback (no token: `state` must match a run) and resumes that run
 */

/** The run's body, checked: a 400 for anything the page should not have sent. @param {unknown} body */
function runOptions(body) {
  const bad = (/** @type {string} */ m) => Object.assign(new Error(m), { status: 400, code: 'invalid_request' });
  if (!body || typeof body !== 'object') throw bad('a JSON body { url, scope?, clientId?, clientSecret? } is needed');
  const b = /** @type {Record<string, unknown>} */ (body);
  const str = (/** @type {unknown} */ v, /** @type {string} */ name) => {
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string' || v.length > 4096) throw bad(`${name} must be a string`);
    return v.trim() === '' ? undefined : v.trim();
  };
  const raw = str(b.url, 'url');
  if (!raw) throw bad('url is required: the MCP endpoint to authorize against');
  let serverUrl;
  try {
    serverUrl = new URL(raw);
  } catch {
    throw bad(`url ${JSON.stringify(raw)} is not an absolute URL`);
  }
  if (serverUrl.protocol !== 'http:' && serverUrl.protocol !== 'https:') throw bad('url must be http(s)');
  serverUrl.hash = '';
  const dpop = b.dpop === true || b.dpop === 'on' ? 'on' : b.dpop === false || b.dpop === 'off' ? 'off' : 'auto';
  return {
    serverUrl,
    dpop: /** @type {'auto' | 'on' | 'off'} */ (dpop),
    scope: str(b.scope, 'scope'),
    clientId: str(b.clientId, 'clientId'),
    clientSecret: str(b.clientSecret, 'clientSecret'),
  };
}

/** The small page the browser tab lands on. @param {import('node:http').ServerResponse} res */
function callbackPage(res, /** @type {number} */ status, /** @type {string} */ text) {
  const esc = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(
    `<!doctype html><meta charset="utf-8"><title>mcpc playground — OAuth</title><body style="font:16px system-ui;margin:3em"><p>${esc}</p></body>`,
  );
}

/**
 * @param {{ emit: (event: { type: 'oauth-step', runId: string, step: OAuthStep }) => void, baseUrl: string }} options
 *   `emit` sends an event to every page; `baseUrl` is the playground's own origin (`http://127.0.0.1:PORT`),
 *   so the redirect URI is `${baseUrl}/oauth/callback`.
 * @returns {OAuthDebugger}
 */
export function createOAuthDebugger({ emit, baseUrl }) {
  /** @type {Map<string, Run>} */
  const runs = new Map();
  const redirectUri = `${baseUrl.replace(/\/+$/, '')}/oauth/callback`;

  const prune = () => {
    const now = Date.now();
    for (const [id, r] of runs) if (now - r.createdAt > RUN_TTL_MS) runs.delete(id);
    while (runs.size >= MAX_RUNS) {
      const oldest = runs.keys().next().value;
      if (oldest === undefined) break;
      runs.delete(oldest);
    }
  };

  /** Run the step at `run.next` and emit it; a failure ends the run. @param {Run} run */
  async function runStep(run) {
    if (run.done || run.next >= STEPS.length) return;
    const index = run.next;
    const [name, title] = /** @type {readonly [string, string]} */ (STEPS[index]);
    const rule = RULES[name];
    const head = { index: index + 1, name, title, ...(rule ? { rule } : {}) };
    /** @type {OAuthStep} */
    let step;
    try {
      const out = await /** @type {(r: Run) => Promise<Partial<OAuthStep>>} */ (steps[name])(run);
      step = { ...head, ok: true, detail: '', ...out };
      run.next = index + 1;
      if (run.next >= STEPS.length) {
        run.done = true;
        step.final = true;
      }
    } catch (e) {
      step = { ...head, ok: false, detail: '', ...failure(e), final: true };
      run.done = true;
    }
    const last = step.exchanges?.at(-1);
    if (last !== undefined && step.exchange === undefined) step.exchange = last;
    if (step.exchanges && step.exchanges.length <= 1) delete step.exchanges;
    emit({ type: 'oauth-step', runId: run.id, step });
  }

  function enqueue(/** @type {Run} */ run, /** @type {() => Promise<void>} */ fn) {
    const p = run.queue.then(fn, fn);
    run.queue = p.catch(() => {});
    return p;
  }

  return {
    async start(body) {
      const o = runOptions(body);
      prune();
      /** @type {Run} */
      const run = {
        id: randomUUID(),
        createdAt: Date.now(),
        // The library's own flow, with this run's storage; every request it makes is recorded for the page.
        flow: new OAuthSteps({
          serverUrl: o.serverUrl,
          redirectUri,
          storage: new MemoryStorage(),
          clientName: 'mcpc playground (OAuth debugger)',
          requestTimeoutMs: 15_000,
          ...(o.scope === undefined ? {} : { scope: o.scope }),
          ...(o.dpop === 'on' ? { dpop: true } : {}),
        }),
        redirectUri,
        ...(o.clientId === undefined ? {} : { clientIdOption: o.clientId }),
        ...(o.clientSecret === undefined ? {} : { clientSecretOption: o.clientSecret }),
        dpopOption: o.dpop,
        next: 0,
        done: false,
        queue: Promise.resolve(),
      };
      runs.set(run.id, run);
      return run.id;
    },

    async continue(runId) {
      const run = runs.get(runId);
      if (!run)
        throw Object.assign(new Error(`no OAuth debugger run "${runId}"`), { status: 404, code: 'unknown_run' });
      await enqueue(run, () => runStep(run));
    },

    callback(req, res) {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const state = url.searchParams.get('state');
      const run = state ? [...runs.values()].find((r) => r.request?.state === state) : undefined;
      if (!run)
        return callbackPage(
          res,
          400,
          'This authorization response belongs to no OAuth debugger run (unknown or missing state).',
        );
      if (run.callback || run.next !== ISS_CHECK || run.done)
        return callbackPage(res, 400, 'This run has already received its authorization response.');
      run.callback = { url: `${redirectUri}${url.search}`, params: url.searchParams };
      callbackPage(res, 200, 'Authorization response received — you can close this tab and return to the playground.');
      if (run.onCallback) run.onCallback(run.callback);
      else
        void enqueue(run, async () => {
          if (run.next === ISS_CHECK && !run.done) await runStep(run);
        });
    },
  };
}

/** What a failed step shows: its own finding, or the library's error with the exchanges made up to it. @returns {Partial<OAuthStep>} */
function failure(/** @type {unknown} */ e) {
  if (e instanceof StepFailure) return { detail: e.message, ...e.extra };
  if (e instanceof OAuthStepError)
    return {
      detail: `${e.message} (${e.reason ?? e.code})`,
      ...(e.exchanges.length > 0 ? { exchanges: e.exchanges } : {}),
      info: { reason: e.reason ?? null, ...(e.log.length > 0 ? { log: e.log } : {}) },
    };
  return { detail: e instanceof Error ? e.message : String(e) };
}
