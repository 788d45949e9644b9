// The `@mcpc/client/config` entry: reading `mcpServers` entries as the MCP hosts write them, and the HTTP transports by name.
export {
  readConfigEntry,
  type ConfigEntry,
  type ConfigEntryResult,
  type StdioConfigEntry,
  type UrlConfigEntry,
  type ReadConfigEntryOptions,
} from './config-entry.js';
export { httpConfig, type HttpTransportName } from './http-choice.js';
