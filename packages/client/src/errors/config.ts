// An `mcpServers` entry that cannot be read: which entry, which field, and why.
import { McpError } from '@mcpc/jsonrpc';
import { brand } from '../brand.js';
import { ClientErrorCode } from '../codes.js';

/**
 * One entry of a server-definition document (`{ "mcpServers": { name: { … } } }`) cannot be used: `entry`
 * is its name, `field` the field at fault (absent when the entry as a whole is), `reason` the why, worded
 * to follow the entry's name (`has neither a "command" nor a "url"`).
 */
export class ConfigEntryError extends McpError {
  static {
    brand(this, 'ConfigEntryError');
  }
  readonly entry: string;
  readonly field: string | undefined;
  readonly reason: string;
  constructor(entry: string, reason: string, field?: string) {
    super(`mcpServers[${JSON.stringify(entry)}] ${reason}`, { code: ClientErrorCode.InvalidConfigEntry });
    this.entry = entry;
    this.field = field;
    this.reason = reason;
  }
}
