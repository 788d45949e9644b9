// The public shapes of host handlers: elicitation and sampling requests, answers and contexts.
import type { JsonSchemaObject, Meta, SamplingContent, SamplingMessage, ToolDefinition } from './protocol.js';

/** Passed to every host handler with the server's request. */
export interface HostRequestContext {
  /** The name of the server asking: show it, the spec requires the user to know who asks. */
  readonly server: string;
  /** Aborted when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
}

// ── elicitation ─────────────────────────────────────────────────────────────────────────────────

export type ElicitationMode = 'form' | 'url';

/** A form field's value in an elicitation answer. */
export type ElicitationValue = string | number | boolean | readonly string[];

/** In-band structured input: render `requestedSchema` (a flat object of primitive fields) as a form. */
export interface FormElicitation {
  readonly mode: 'form';
  readonly message: string;
  readonly requestedSchema: JsonSchemaObject & {
    readonly type: 'object';
    readonly properties: { readonly [field: string]: JsonSchemaObject };
  };
  readonly _meta?: Meta;
}

/**
 * Out-of-band interaction: ask the user's consent, then open `url` in a browser the client cannot
 * read. Never pre-fetch it; show the full URL (and its host) first.
 */
export interface UrlElicitation {
  readonly mode: 'url';
  readonly message: string;
  readonly url: string;
  /** Present on classic servers; MCP 2026-07-28 removed it (the outcome comes from retrying the request). */
  readonly elicitationId?: string;
  readonly _meta?: Meta;
}

export type ElicitationRequest = FormElicitation | UrlElicitation;

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

/** What is sent back to the server. */
export interface ElicitationResult {
  readonly action: ElicitationAction;
  /** Form mode, with `accept` only. */
  readonly content?: { readonly [field: string]: ElicitationValue };
  readonly _meta?: Meta;
}

/**
 * What a handler may return: an {@link ElicitationResult}; in form mode the content alone (an object
 * without an `action` key), which counts as accept; in URL mode `true` for accept. Anything else, or an
 * action other than accept/decline/cancel, is answered `cancel`: it is not consent the user gave.
 */
export type ElicitationAnswer = ElicitationResult | { readonly [field: string]: ElicitationValue } | true | undefined;

export type ElicitationHandler = (
  request: ElicitationRequest,
  context: HostRequestContext,
) => ElicitationAnswer | Promise<ElicitationAnswer>;

// ── sampling ────────────────────────────────────────────────────────────────────────────────────

export interface ModelPreferences {
  readonly hints?: readonly { readonly name?: string }[];
  readonly costPriority?: number;
  readonly speedPriority?: number;
  readonly intelligencePriority?: number;
}

/** A server's `sampling/createMessage`, after its history was checked. */
export interface SamplingRequest {
  readonly messages: readonly SamplingMessage[];
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly modelPreferences?: ModelPreferences;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  /** `'thisServer'` and `'allServers'` are deprecated. */
  readonly includeContext?: 'none' | 'thisServer' | 'allServers';
  readonly metadata?: { readonly [key: string]: unknown };
  /** Present only when the client was created with `samplingSupportsTools: true`. */
  readonly tools?: readonly ToolDefinition[];
  readonly toolChoice?: { readonly mode?: 'auto' | 'required' | 'none' };
  readonly _meta?: Meta;
}

export interface SamplingResult {
  /** Defaults to `'assistant'`. */
  readonly role?: 'assistant';
  /** The model that produced the answer. */
  readonly model: string;
  readonly content: SamplingContent | readonly SamplingContent[];
  readonly stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse' | (string & {});
  readonly _meta?: Meta;
}

export type SamplingHandler = (
  request: SamplingRequest,
  context: HostRequestContext,
) => SamplingResult | Promise<SamplingResult>;
