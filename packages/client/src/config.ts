// The `@mcpc/client/config` entry: `mcpServers` entries read as the hosts write them, HTTP transports by name.
export {
  readConfigEntry,
  type ConfigEntry,
  type ConfigEntryResult,
  type StdioConfigEntry,
  type UrlConfigEntry,
  type ReadConfigEntryOptions,
} from './config-entry.js';
export { httpConfig, type HttpTransportName } from './http-choice.js';
