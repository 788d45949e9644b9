// What every connection shares with its client: logging, timeouts, request metadata, the host side, event sinks.
//
// The event sinks are where notifications and closes are reported.
import type { JsonRpcParams, Logger } from '@mcpc/jsonrpc';
import type { Connection } from './connection.js';
import type { TaskInputRounds } from '../tasks/input-rounds.js';
import type { HostBridge } from './era.js';
import type { RequestMetaOption } from './meta.js';
import type { InputLimits, InputRequiredWaitHook } from './mrtr.js';
import type { TracingFactory } from '../tracing/tracing.js';

/** What every connection shares with its client. */
export interface ConnectionContext {
  readonly logger: Logger;
  readonly requestTimeout: number | undefined;
  readonly handshakeTimeout: number | undefined;
  readonly deprecationNotices: boolean;
  /** Host metadata merged into every request's `_meta`. */
  readonly requestMeta: RequestMetaOption | undefined;
  readonly onInputRequiredWait: InputRequiredWaitHook | undefined;
  /** Bounds on what one input_required round may ask (`maxInputRequests`, `maxRequestStateBytes`). */
  readonly inputLimits?: Partial<InputLimits> | undefined;
  /** Extensions declared to stateless servers (`clientCapabilities.extensions`). */
  readonly extensions: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
  /** The 2025-11-25 task waits whose input requests are counted (`related-task`), bounded per wait. */
  readonly taskInputRounds?: TaskInputRounds | undefined;
  /** Each connection's tracing (observers, MRTR hooks), made as it opens; undefined when tracing is off. */
  readonly tracing?: TracingFactory | undefined;
  /** The host side, built when the connection opens, so capabilities reflect what is registered then. */
  readonly host: (server: string) => HostBridge;
  /** Called synchronously for each server notification the engine does not consume itself. */
  readonly onNotification: (connection: Connection, method: string, params: JsonRpcParams | undefined) => void;
  readonly onClose: (connection: Connection, cause: Error | undefined) => void;
}
