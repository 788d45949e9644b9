// The OAuth debugger: runs of @mcpc/oauth/steps walked one step at a time for the page, and the redirect back to them.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MemoryStorage } from '@mcpc/oauth';
import { OAuthStepError, OAuthSteps } from '@mcpc/oauth/steps';
import type { OAuthStep } from '../contract/api.js';
import { ApiError } from './http.js';
import { ISS_CHECK, RULES, STEPS } from './oauth-debugger/rules.js';
import { runOptions, StepFailure, type Run, type StepOutcome } from './oauth-debugger/run.js';
import { steps } from './oauth-debugger/steps.js';

const MAX_RUNS = 20;
const RUN_TTL_MS = 60 * 60_000;

/** What the routes use of the debugger: `POST /api/oauth/runs`, `…/:runId/continue` and `GET /oauth/callback`. */
export interface OAuthDebugger {
  /** Begins a run (no step runs yet); resolves with its id. The body is checked there (a 400 when bad). */
  start(body: unknown): Promise<string>;
  /** Runs the next step (the `iss` check waits for the redirect, at most 5 minutes). */
  continue(runId: string): Promise<void>;
  /** Answers the browser's redirect back to the playground and resumes the run its `state` names. */
  callback(req: IncomingMessage, res: ServerResponse): void;
}

export interface OAuthDebuggerOptions {
  /** Sends each step to every page. */
  emit: (event: { type: 'oauth-step'; runId: string; step: OAuthStep }) => void;
  /** The playground's own origin (`http://127.0.0.1:PORT`): the redirect URI is `${baseUrl}/oauth/callback`. */
  baseUrl: string;
}

export function createOAuthDebugger({ emit, baseUrl }: OAuthDebuggerOptions): OAuthDebugger {
  const runs = new Map<string, Run>();
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

  /** Run the step at `run.next` and emit it; a failure ends the run. */
  async function runStep(run: Run): Promise<void> {
    if (run.done || run.next >= STEPS.length) return;
    const index = run.next;
    const [name, title] = STEPS[index] as (typeof STEPS)[number];
    const rule = RULES[name];
    const head = { index: index + 1, name, title, ...(rule ? { rule } : {}) };
    let step: OAuthStep;
    try {
      const out = await steps[name](run);
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

  function enqueue(run: Run, fn: () => Promise<void>): Promise<void> {
    const p = run.queue.then(fn, fn);
    run.queue = p.catch(() => {});
    return p;
  }

  return {
    async start(body) {
      const o = runOptions(body);
      prune();
      const run: Run = {
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
      if (!run) throw new ApiError(404, 'unknown_run', `no OAuth debugger run "${runId}"`);
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

/** The small page the browser tab lands on. */
function callbackPage(res: ServerResponse, status: number, text: string): void {
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

/** What a failed step shows: its own finding, or the library's error with the exchanges made up to it. */
function failure(e: unknown): StepOutcome {
  if (e instanceof StepFailure) return { detail: e.message, ...e.extra };
  if (e instanceof OAuthStepError)
    return {
      detail: `${e.message} (${e.reason ?? e.code})`,
      ...(e.exchanges.length > 0 ? { exchanges: e.exchanges } : {}),
      info: { reason: e.reason ?? null, ...(e.log.length > 0 ? { log: e.log } : {}) },
    };
  return { detail: e instanceof Error ? e.message : String(e) };
}
