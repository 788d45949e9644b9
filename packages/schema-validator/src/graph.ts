// The compiled graph's analysis: refusing bad reference cycles and chains, and choosing the targets that memoise.
//
// It refuses reference cycles that never descend into the instance and over-long reference chains, and decides which
// reference targets memoise their results.

import { SchemaErrorCode } from './codes.js';
import { SchemaError, SchemaLimitError } from './errors.js';
import type { SchemaNode } from './runtime.js';

/** An in-place edge: `node` applies to the same instance location; `ref` when a reference is followed. */
export interface Edge {
  readonly node: SchemaNode;
  readonly ref: boolean;
}

/**
 * A cycle of references that never descends into the instance (`{"$ref": "#"}`, `allOf` back to the
 * root) would recurse for ever on some instance: such a schema is refused here, with the cycle. On the
 * acyclic graph that remains, the longest chain of references applying to one instance location is
 * measured: past `max` (`limits.maxRefDepth`) every evaluation reaching it would end in a depth error, so
 * the schema is refused now (`maxRefChain`) rather than at each validation.
 */
export function checkCycles(edgesOf: ReadonlyMap<SchemaNode, readonly Edge[]>, max: number): SchemaNode[] {
  /** Nodes in the order they were finished: every node after all it reaches in place. */
  const postOrder: SchemaNode[] = [];
  const WHITE = 0;
  const GREY = 1;
  const BLACK = 2;
  const color = new Map<SchemaNode, number>();
  /** The most references one evaluation may nest from a node without descending (nodes are BLACK). */
  const chain = new Map<SchemaNode, number>();
  for (const start of edgesOf.keys()) {
    if ((color.get(start) ?? WHITE) !== WHITE) continue;
    const stack: { node: SchemaNode; next: number }[] = [{ node: start, next: 0 }];
    color.set(start, GREY);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { node: SchemaNode; next: number };
      const edges = edgesOf.get(top.node) ?? [];
      if (top.next >= edges.length) {
        let longest = 0;
        for (const e of edges) longest = Math.max(longest, (chain.get(e.node) ?? 0) + (e.ref ? 1 : 0));
        if (longest > max) {
          throw new SchemaLimitError(
            'maxRefChain',
            max,
            `the schema at ${top.node.loc} starts a chain of ${longest} references that apply to one instance location (limits.maxRefDepth is ${max}); no value could be validated through it`,
            top.node.loc,
          );
        }
        chain.set(top.node, longest);
        postOrder.push(top.node);
        color.set(top.node, BLACK);
        stack.pop();
        continue;
      }
      const to = (edges[top.next++] as Edge).node;
      const c = color.get(to) ?? WHITE;
      if (c === GREY) {
        const from = stack.findIndex((f) => f.node === to);
        const cycle = [...stack.slice(from).map((f) => f.node.loc), to.loc].join(' → ');
        throw new SchemaError(
          `the schema refers to itself without descending into the instance (${cycle}); evaluating it would never end`,
          {
            code: SchemaErrorCode.RefCycle,
            schemaPath: to.loc,
          },
        );
      }
      if (c === WHITE && edgesOf.has(to)) {
        color.set(to, GREY);
        stack.push({ node: to, next: 0 });
      }
    }
  }
  return postOrder;
}

/**
 * Turns memoising on for the reference targets one instance location can evaluate more than once: a
 * node that two in-place paths from the same entry reach (an entry is a node no in-place edge reaches:
 * the root, a `properties`/`items` subschema). Entries are tracked per node in topological order, up
 * to a few; a node reached from more is left unmemoised (the step budget still bounds it). A `$defs`
 * entry referenced from many properties is reached once from each: no memo, no cost.
 */
export function markShared(
  postOrder: readonly SchemaNode[],
  edgesOf: ReadonlyMap<SchemaNode, readonly Edge[]>,
  memoFlags: ReadonlyMap<SchemaNode, { on: boolean }>,
): void {
  if (memoFlags.size === 0) return;
  const MAX_ENTRIES = 8;
  /** Entries reaching a node in place (null: more than MAX_ENTRIES), and whether one reaches it twice. */
  const state = new Map<SchemaNode, { entries: Set<SchemaNode> | null; twice: boolean }>();
  for (let i = postOrder.length - 1; i >= 0; i--) {
    const n = postOrder[i] as SchemaNode;
    let from = state.get(n);
    if (from === undefined) state.set(n, (from = { entries: new Set([n]), twice: false }));
    for (const e of edgesOf.get(n) ?? []) {
      let to = state.get(e.node);
      if (to === undefined) state.set(e.node, (to = { entries: new Set(), twice: false }));
      if (from.twice) to.twice = true;
      if (from.entries === null) to.entries = null;
      else if (to.entries !== null) {
        for (const entry of from.entries) {
          if (to.entries.has(entry)) to.twice = true;
          else to.entries.add(entry);
        }
        if (to.entries.size > MAX_ENTRIES) to.entries = null;
      }
    }
  }
  for (const [node, flag] of memoFlags) flag.on = state.get(node)?.twice === true;
}
