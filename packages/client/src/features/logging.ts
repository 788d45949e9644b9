// Server log messages: level checks, and peer text escaped and capped before a listener sees it.
import { escapePeerText } from '@mcpc/jsonrpc';
import type { LogMessage } from '../types/entities.js';
import { LOGGING_LEVELS, type LoggingLevel } from '../types/protocol.js';

export const DEFAULT_LOG_MESSAGE_LIMIT = 2000;

export function checkLevel(level: unknown): LoggingLevel {
  if (!(LOGGING_LEVELS as readonly unknown[]).includes(level)) {
    throw new TypeError(`log level must be one of ${LOGGING_LEVELS.join(', ')}`);
  }
  return level as LoggingLevel;
}

/**
 * Peer text escaped, then capped: the result is at most `limit` characters *after* escaping (an escape
 * takes up to 10 characters for one it replaces, so capping the original first would let 2,000 ESC
 * characters grow to 8,000), marker included when it was cut (`…(N chars)`, N the original length).
 * An escape sequence is never split. Only the first `limit` characters are ever escaped: escaping never
 * shrinks text, so nothing past them can fit.
 */
export function capPeerText(text: string, limit: number): string {
  const head = text.length > limit ? text.slice(0, limit) : text;
  const escaped = escapePeerText(head, Number.MAX_SAFE_INTEGER);
  if (head.length === text.length && escaped.length <= limit) return escaped;
  const marker = `…(${text.length} chars)`;
  const budget = Math.max(0, limit - marker.length);
  let out = '';
  for (const char of head) {
    const piece = escapePeerText(char, Number.MAX_SAFE_INTEGER);
    if (out.length + piece.length > budget) break;
    out += piece;
  }
  return out + marker;
}

/**
 * A server's `notifications/message` made safe to print: control and bidi characters escaped, strings
 * capped at `limit` characters after escaping, and structured data bounded (past the budget it becomes a capped JSON string), so
 * a server can neither forge log lines nor flood them. Undefined when the params are not a log message.
 */
export function sanitizeLogMessage(params: unknown, limit: number = DEFAULT_LOG_MESSAGE_LIMIT): LogMessage | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const p = params as Record<string, unknown>;
  const level: LoggingLevel = (LOGGING_LEVELS as readonly unknown[]).includes(p.level)
    ? (p.level as LoggingLevel)
    : 'info';
  const message: { level: LoggingLevel; logger?: string; data: unknown } = { level, data: sanitize(p.data, limit) };
  if (typeof p.logger === 'string') message.logger = capPeerText(p.logger, 200);
  return message;
}

function sanitize(data: unknown, limit: number): unknown {
  if (typeof data === 'string') return capPeerText(data, limit);
  if (typeof data !== 'object' || data === null) return data;
  const budget = { left: limit };
  const out = walk(data, budget, 0);
  if (budget.left >= 0) return out;
  let json: string;
  try {
    json = JSON.stringify(data) ?? '';
  } catch {
    json = '[unserializable]';
  }
  return capPeerText(json, limit);
}

/** Copies `value` with every string escaped, charging each string and key, as escaped, against the budget. */
function walk(value: unknown, budget: { left: number }, depth: number): unknown {
  if (budget.left < 0) return undefined;
  if (typeof value === 'string') {
    // Only what can still fit is escaped: a huge string past the budget costs no more than the budget.
    const escaped = escapePeerText(
      value.length > budget.left ? value.slice(0, budget.left + 1) : value,
      Number.MAX_SAFE_INTEGER,
    );
    budget.left -= escaped.length;
    return escaped;
  }
  if (typeof value !== 'object' || value === null) {
    budget.left -= 8;
    return value;
  }
  if (depth > 32) {
    budget.left = -1;
    return undefined;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      out.push(walk(item, budget, depth + 1));
      if (budget.left < 0) break;
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const safeKey = capPeerText(key, 200);
    budget.left -= safeKey.length;
    // defineProperty: a `__proto__` key from the server must stay a plain key.
    Object.defineProperty(out, safeKey, {
      value: walk(item, budget, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (budget.left < 0) break;
  }
  return out;
}
