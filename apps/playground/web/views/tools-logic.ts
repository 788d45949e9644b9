// The tools view's decisions, without a DOM: search, the hint badges, the app a tool names, how a result shows.
import type { CallToolResult, OutputVerdict, ToolView } from '../../contract/api.js';

/** A call or task the user (or the server) cancelled: not an error to show in red. */
export function isCancellation(code: unknown): boolean {
  return code === 'ABORT_ERR' || code === 'MCPC_TASK_CANCELLED';
}

/** Whether a tool matches the search: every word in its name, title or description, any case. */
export function matches(tool: Pick<ToolView, 'name' | 'title' | 'description'>, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = `${tool.name}\n${tool.title ?? ''}\n${tool.description ?? ''}`.toLowerCase();
  return words.every((w) => text.includes(w));
}

export const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

export interface HintBadge {
  hint: (typeof HINTS)[number];
  /** The value the client resolved (the declared one, or the MCP default). */
  value: unknown;
  declared: boolean;
}

/**
 * The hints as badges; an undeclared hint shows the value the client assumes, marked as a default.
 * destructiveHint and idempotentHint mean something only when readOnlyHint is false (the spec), so a
 * read-only tool shows them only when its server declared them.
 */
export function hintBadges(tool: Pick<ToolView, 'annotations' | 'declaredAnnotations'>): HintBadge[] {
  const declared: Partial<Record<string, unknown>> = tool.declaredAnnotations ?? {};
  // Wire data: a page must not break on a tool that came without them.
  const resolved: Partial<ToolView['annotations']> = tool.annotations ?? {};
  const readOnly = resolved.readOnlyHint === true;
  return HINTS.flatMap((hint) => {
    const given = typeof declared[hint] === 'boolean';
    if (!given && readOnly && (hint === 'destructiveHint' || hint === 'idempotentHint')) return [];
    return [{ hint, value: resolved[hint], declared: given }];
  });
}

/** The `ui://` resource a tool renders its result with (MCP Apps: `_meta.ui.resourceUri`, or the older flat key). */
export function uiUri(tool: Pick<ToolView, '_meta'>): string | undefined {
  const meta: Partial<Record<string, unknown>> = tool._meta ?? {};
  const ui = meta.ui;
  const u =
    (typeof ui === 'object' && ui !== null ? (ui as { resourceUri?: unknown }).resourceUri : undefined) ??
    meta['ui/resourceUri'];
  return typeof u === 'string' && u.startsWith('ui://') ? u : undefined;
}

/** What a result shows beside its content: the structured content, the output check, or a missing-output warning. */
export function resultParts(
  result: Pick<CallToolResult, 'structuredContent' | 'isError'>,
  tool: Pick<ToolView, 'outputSchema'> | undefined,
  main: boolean,
): { structured: boolean; outputCheck: boolean; structuredMissing: boolean } {
  const structured = result.structuredContent !== undefined;
  const declares = tool?.outputSchema !== undefined;
  return {
    structured,
    outputCheck: structured && main && declares,
    structuredMissing: declares && !structured && !result.isError,
  };
}

/** The client's verdict on the output schema as a word and a tone. */
export function verdictSummary(verdict: OutputVerdict | undefined): { text: string; tone: 'muted' | 'ok' | 'error' } {
  if (verdict === undefined) return { text: 'not reported', tone: 'muted' };
  if (verdict.valid === null) return { text: 'undecided (a check could not finish)', tone: 'muted' };
  if (verdict.valid) return { text: 'valid', tone: 'ok' };
  return { text: `${verdict.issues.length} issue(s)`, tone: 'error' };
}
