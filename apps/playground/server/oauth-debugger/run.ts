// One OAuth debugger run: its state between steps, its options from the page's body, and how a step fails.
import type {
  AuthorizationRequest,
  CheckedAuthorizationResponse,
  Discovered,
  FoundResource,
  OAuthSteps,
  PkcePair,
  ProbedChallenge,
  ResolvedClient,
  StoredTokens,
} from '@mcpc/oauth/steps';
import type { OAuthStep } from '../../contract/api.js';
import { ApiError } from '../http.js';

/** The redirect back to `/oauth/callback`: the URL it reached and its query. */
export interface CallbackData {
  url: string;
  params: URLSearchParams;
}

/** What a step adds to the step the page is shown (its index, name, title and rule are filled in by the runner). */
export type StepOutcome = Partial<OAuthStep>;

/** A run: the library's flow and what each step found, for the steps after it. */
export interface Run {
  id: string;
  createdAt: number;
  flow: OAuthSteps;
  redirectUri: string;
  clientIdOption?: string;
  clientSecretOption?: string;
  dpopOption: 'auto' | 'on' | 'off';
  /** The position in `STEPS` of the step to run next. */
  next: number;
  done: boolean;
  /** The steps, one after another (a `continue` and the redirect can arrive together). */
  queue: Promise<void>;
  challenge?: ProbedChallenge;
  found?: FoundResource;
  discovered?: Discovered;
  client?: ResolvedClient;
  pkce?: PkcePair;
  request?: AuthorizationRequest;
  callback?: CallbackData;
  onCallback?: ((data: CallbackData) => void) | undefined;
  checked?: CheckedAuthorizationResponse;
  tokens?: StoredTokens;
}

/** What the page asked a run for: `POST /api/oauth/runs`'s body, checked. */
export interface RunOptions {
  serverUrl: URL;
  dpop: 'auto' | 'on' | 'off';
  scope: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
}

/** The run's body, checked: a 400 for anything the page should not have sent. */
export function runOptions(body: unknown): RunOptions {
  const bad = (message: string) => new ApiError(400, 'invalid_request', message);
  if (!body || typeof body !== 'object') throw bad('a JSON body { url, scope?, clientId?, clientSecret? } is needed');
  const b = body as Record<string, unknown>;
  const str = (v: unknown, name: string): string | undefined => {
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string' || v.length > 4096) throw bad(`${name} must be a string`);
    return v.trim() === '' ? undefined : v.trim();
  };
  const raw = str(b.url, 'url');
  if (!raw) throw bad('url is required: the MCP endpoint to authorize against');
  let serverUrl: URL;
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
    dpop,
    scope: str(b.scope, 'scope'),
    clientId: str(b.clientId, 'clientId'),
    clientSecret: str(b.clientSecret, 'clientSecret'),
  };
}

/** A step that ran and found something wrong: its message is the step's detail. */
export class StepFailure extends Error {
  constructor(
    message: string,
    readonly extra: StepOutcome = {},
  ) {
    super(message);
    this.name = 'StepFailure';
  }
}

export function fail(message: string, extra: StepOutcome = {}): never {
  throw new StepFailure(message, extra);
}

/** What an earlier step left on the run; the order of `STEPS` guarantees it is there. */
export function need<T>(value: T | undefined): T {
  return value as T;
}
