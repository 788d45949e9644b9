// The @mcpc/oauth/steps entry: the provider's authorization code flow one step at a time, every exchange recorded.
export {
  OAuthSteps,
  type OAuthStepsOptions,
  type StepResult,
  type AuthorizationRequest,
  type CheckedAuthorizationResponse,
  type ResourceResponse,
} from './steps/flow.js';
export type { Exchange, RecordedRequest, RecordedResponse } from './steps/recorder.js';
export { redactSecret } from './steps/redaction.js';
export { describeJwt, dpopSupport, type DPoPSupport } from './steps/inspect.js';
export type { ProbedChallenge } from './discovery/probe.js';
export type { Discovered, FoundResource } from './discovery/binding.js';
export type { ProtectedResourceMetadata } from './discovery/resource-metadata.js';
export type { AuthorizationServerMetadata } from './discovery/server-metadata.js';
export type { Challenge } from './discovery/www-authenticate.js';
export type { ResolvedClient, ClientSource } from './grants/client-resolution.js';
export type { PkcePair } from './grants/authorization-request.js';
export type { CheckedCallback } from './grants/code-flow.js';
export type { StoredTokens, PendingAuthorization } from './storage/storage.js';
export { OAuthStepError } from './errors.js';
