export { SseTransport } from './transport.js';
export type { SseTransportOptions } from './options.js';
export { EndpointOriginError, EndpointTimeoutError } from './errors.js';
