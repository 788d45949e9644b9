// The `code` strings of the errors @mcpc/transport-sse-legacy raises itself, one constant each.
//
// No `endpoint` event in time is the kernel's `TransportErrorCode.EndpointTimeout`: the client decides on it.

export const SseErrorCode = Object.freeze({
  /** `EndpointOriginError`: the `endpoint` event named a URL on another origin. */
  EndpointOffOrigin: 'MCPC_ENDPOINT_OFF_ORIGIN',
} as const);
export type SseErrorCode = (typeof SseErrorCode)[keyof typeof SseErrorCode];
