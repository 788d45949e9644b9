import { escapeForLog } from '@mcpc/jsonrpc';
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
 * A server's `notifications/message` made safe to print: control and bidi characters escaped, strings
 * capped at `limit`, and structured data bounded (past the budget it becomes a capped JSON string), so
 * a server can neither forge log lines nor flood them. Undefined when the params are not a log message.
 */
export function sanitizeLogMessage(params: unknown, limit: number = DEFAULT_LOG_MESSAGE_LIMIT): LogMessage | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const p = params as Record<string, unknown>;
  const level: LoggingLevel = (LOGGING_LEVELS as readonly unknown[]).includes(p.level) ? (p.level as LoggingLevel) : 'info';
  const message: { level: LoggingLevel; logger?: string; data: unknown } = { level, data: sanitize(p.data, limit) };
  if (typeof p.logger === 'string') message.logger = escapeForLog(p.logger, 200);
  return message;
}

function sanitize(data: unknown, limit: number): unknown {
  if (typeof data === 'string') return escapeForLog(data, limit);
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
  return escapeForLog(json, limit);
}

/** Copies `value` with every string escaped, charging each string and key against the budget. */
function walk(value: unknown, budget: { left: number }, depth: number): unknown {
  if (budget.left < 0) return undefined;
  if (typeof value === 'string') {
    budget.left -= value.length;
    return escapeForLog(value, Number.MAX_SAFE_INTEGER);
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
    budget.left -= key.length;
    // defineProperty: a `__proto__` key from the server must stay a plain key.
    Object.defineProperty(out, escapeForLog(key, 200), { value: walk(item, budget, depth + 1), enumerable: true, writable: true, configurable: true });
    if (budget.left < 0) break;
  }
  return out;
}
