// The engine's logging: warnings and errors, debug lines built only when wanted, peer-rate-limited warnings.

import { safeLog, type Logger } from './logger.js';
import type { MessageInfo } from './transport.js';
import { WarningLimiter } from './warning-limiter.js';

/** The engine's log, shared by its parts; every line is prefixed `[mcpc]`. */
export class EngineLog {
  readonly #logger: Logger;
  // Warnings the peer decides the rate of (junk frames, unsolicited responses): rate-limited per kind.
  readonly peerWarnings: WarningLimiter;

  constructor(logger: Logger) {
    this.#logger = logger;
    this.peerWarnings = new WarningLimiter((message) => this.log('warn', message));
  }

  log(level: 'warn' | 'error', message: string): void {
    safeLog(this.#logger, level, `[mcpc] ${message}`);
  }

  /** Whether debug lines are wanted: checked first on the hot paths, so no message closure is made for nothing. */
  get tracing(): boolean {
    return this.#logger.isLevelEnabled?.('debug') !== false;
  }

  trace(build: () => string): void {
    if (!this.tracing) return;
    safeLog(this.#logger, 'debug', `[mcpc] ${build()}`);
  }
}

/** ` (N bytes)` when the transport reported the frame's size. */
export const bytes = (info: MessageInfo | undefined): string =>
  info?.byteLength === undefined ? '' : ` (${info.byteLength} bytes)`;

export const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));
