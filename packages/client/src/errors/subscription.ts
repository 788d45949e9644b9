// The failure of a subscription stream (MCP 2026-07-28): refused, unsupported, or ended.
import { McpError } from '@mcpc/jsonrpc';
import { brand } from '../brand.js';
import { ClientErrorCode } from '../codes.js';

/**
 * A subscription (MCP 2026-07-28 `subscriptions/listen`) could not be had or kept: `reason` says why
 * (`'unsupported'`: the server is not a 2026-07-28 server; `'refused'`: its acknowledgment left out
 * what was asked; `'ended'`: it ended before it was acknowledged; `'closed'`: it was closed).
 */
export class SubscriptionError extends McpError {
  static {
    brand(this, 'SubscriptionError');
  }
  readonly reason: 'unsupported' | 'refused' | 'ended' | 'closed';
  readonly server: string;
  constructor(reason: 'unsupported' | 'refused' | 'ended' | 'closed', server: string, detail: string) {
    super(`subscription on server "${server}": ${detail}`, { code: ClientErrorCode.SubscriptionFailed });
    this.reason = reason;
    this.server = server;
  }
}
