// The typed seam to the OAuth debugger (oauth-debugger.mjs, owned apart): what the routes call, checked against its JSDoc.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthStep } from '../shared/api.js';
import { createOAuthDebugger as createFromModule } from './oauth-debugger.mjs';

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
  /** The playground's own origin: the redirect URI is `${baseUrl}/oauth/callback`. */
  baseUrl: string;
}

/**
 * The module's factory under this seam's type: the assignment is the check that the steps it emits are the
 * shared `OAuthStep` and that it offers what the routes call. A rewrite of the module must keep it true.
 */
export const createOAuthDebugger: (options: OAuthDebuggerOptions) => OAuthDebugger = createFromModule;
