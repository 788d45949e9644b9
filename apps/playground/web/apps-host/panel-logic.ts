// The app panel's DOM-free decisions: the result a View gets, a value's key and short text, a download's file name.
import type { JsonObject } from './bridge.js';

export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** A value's identity for the effects that restart the View (its JSON; an unserializable value is never equal). */
export function keyOf(v: unknown): string {
  if (v === undefined) return 'undefined';
  try {
    return JSON.stringify(v) ?? 'undefined';
  } catch {
    return String(Math.random());
  }
}

/** A value as at most `max` characters of text, for the panel's log. */
export function short(v: unknown, max = 400): string {
  let s: string;
  try {
    s = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

export function isObj(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What the page has for the tool call, as the notification the View gets. */
export function normalizeResult(v: unknown): { result: JsonObject } | { cancelled: string } | undefined {
  if (!isObj(v)) return undefined;
  const withContent = (r: JsonObject): JsonObject => (Array.isArray(r.content) ? r : { ...r, content: [] });
  if ('content' in v || 'structuredContent' in v) return { result: withContent(v) };
  if (isObj(v.result)) return { result: withContent(v.result) };
  if (isObj(v.error)) {
    const message = String(v.error.message ?? 'tool call failed');
    if (v.error.code === -32800 || /cancel/i.test(message)) return { cancelled: message };
    return { result: { content: [{ type: 'text', text: message }], isError: true } };
  }
  return undefined;
}

/** A name to save a downloaded resource under: the URI's last segment, made safe, or `fallback`. */
export function fileName(uri: string, fallback: string): string {
  const last = uri.split(/[/:]/).filter(Boolean).pop() ?? '';
  const clean = last.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  return clean || fallback;
}
