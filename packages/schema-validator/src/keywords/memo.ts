// Memoised evaluation of a shared reference target: evaluated once per instance location, not once per path.
//
// A node that several in-place paths reach (40 levels of `allOf: [{"$ref": next}, {"$ref": next}]`) is evaluated once
// per location, so such a schema costs linear time instead of 2^levels. Only where the result is a function of the node
// and the value alone: no annotations asked for (`ev` null, so `unevaluated*` above are not involved) and no dynamic
// scope (the compiler turns memoising off for schemas using one).

import type { ValidationIssue } from '../result.js';
import type { Ctx, Path, SchemaNode, Scope } from '../runtime.js';

/**
 * What one evaluation may remember, counting an entry and each issue it keeps as one: past it,
 * evaluation goes on unmemoised (memory stays bounded; the step budget bounds the time).
 */
const MAX_SIZE = 100_000;

export function runMemoised(
  node: SchemaNode,
  data: unknown,
  ctx: Ctx,
  path: Path | null,
  scope: Scope | null,
): boolean {
  const memo = (ctx.memo ??= { size: 0, byNode: new Map() });
  let seen = memo.byNode.get(node);
  const hit = seen?.get(data);
  // With issues collected, an entry is replayed only where it was made: an equal value elsewhere (two
  // equal items) reports its own instance path, and `propertyNames` runs on each name with one path.
  if (hit !== undefined && hit.path === path) {
    if (hit.issues === null) return false;
    const errors = ctx.errors;
    if (errors !== null) for (const issue of hit.issues) if (errors.length < ctx.maxErrors) errors.push(issue);
    return hit.issues.length === 0;
  }
  const errors = ctx.errors;
  const mark = errors?.length ?? 0;
  const ok = node.run(data, ctx, path, null, scope);
  if (memo.size >= MAX_SIZE) return ok;
  let issues: readonly ValidationIssue[] | null;
  if (errors === null) issues = ok ? [] : null;
  else {
    issues = ok ? [] : errors.slice(mark);
    // A failure that left no issue (the list was full) cannot be replayed as one. One cut at maxErrors is
    // kept: replayed, it still reports the failure, with at most the issues it had.
    if (!ok && issues.length === 0) return ok;
  }
  if (seen === undefined) memo.byNode.set(node, (seen = new Map()));
  seen.set(data, { path, issues });
  memo.size += 1 + (issues?.length ?? 0);
  return ok;
}
