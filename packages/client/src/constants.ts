// The `@mcpc/client/constants` entry: protocol versions, logging levels and the client's fixed bounds.
//
// These are values a typical caller never needs, kept off the root so the front door stays small.
export {
  LEGACY_PROTOCOL_VERSIONS,
  LATEST_LEGACY_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  LATEST_MODERN_VERSION,
  PROTOCOL_VERSIONS,
  type LegacyProtocolVersion,
  type ModernProtocolVersion,
} from './server/versions.js';
export { LOGGING_LEVELS } from './types/protocol.js';
export { MAX_PENDING_PROGRESS } from './features/streaming.js';
export { MAX_PENDING_NOTIFICATIONS, MAX_PENDING_NOTIFICATION_BYTES } from './subscriptions/queue.js';
export { SUBSCRIPTION_RESTART_MIN_INTERVAL } from './subscriptions/server-streams.js';
export { TASKS_EXTENSION } from './tasks/wire.js';
export { DEFAULT_POLL_INTERVAL_MS, MIN_POLL_INTERVAL_MS, MAX_POLL_INTERVAL_MS } from './tasks/wait.js';
export { MAX_TASK_RECORDS } from './tasks/book.js';
