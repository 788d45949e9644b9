// $ref, $dynamicRef (2020-12) and $recursiveRef (2019-09).
//
// All three are resolved at compile time to a node; the dynamic two may be re-bound at run time to a resource of the
// dynamic scope. Every traversal counts against `limits.maxRefDepth`, so a recursive schema over a hostile, deeply
// nested instance ends with an issue instead of a stack overflow, and against `limits.maxEvaluationSteps`, so
// references that fan out (each level applying the next twice) end with an issue instead of exponential time. A static
// reference to a target one location can reach twice is memoised (`memo.ts`).

import { malformed } from '../build.js';
import type { Build } from '../build.js';
import { isObject } from '../json.js';
import { LimitAborted } from '../limit-abort.js';
import { runMemoised } from './memo.js';
import type { Check, Ctx, SchemaNode } from '../runtime.js';

/** The bounds a reference checks, copied out of the `Build` so a check does not keep the compiler alive. */
interface Bounds {
  readonly keyword: string;
  readonly at: string;
  readonly maxRefDepth: number;
  readonly maxEvaluationSteps: number;
}

const boundsOf = (b: Build, keyword: string): Bounds => ({
  keyword,
  at: `${b.loc}/${keyword}`,
  maxRefDepth: b.maxRefDepth,
  maxEvaluationSteps: b.maxEvaluationSteps,
});

/**
 * Ends the evaluation when following one more reference would pass a bound. Aborting (rather than
 * failing this branch) keeps a `not` around it from turning it into a pass.
 */
function limitReached(k: Bounds, ctx: Ctx): never {
  throw ctx.depth < 0
    ? new LimitAborted(
        'maxRefDepth',
        k.maxRefDepth,
        k.keyword,
        k.at,
        `references nest deeper than ${k.maxRefDepth} (limits.maxRefDepth) on this value, so it cannot be validated`,
      )
    : new LimitAborted(
        'maxEvaluationSteps',
        k.maxEvaluationSteps,
        k.keyword,
        k.at,
        `the evaluation followed more than ${k.maxEvaluationSteps} references (limits.maxEvaluationSteps), so the value cannot be validated`,
      );
}

function traverse(b: Build, keyword: string, resolve: (scope: Parameters<Check>[4]) => SchemaNode): Check {
  const k = boundsOf(b, keyword);
  return (data, ctx, path, ev, scope) => {
    if (--ctx.depth < 0 || --ctx.steps < 0) limitReached(k, ctx);
    const ok = resolve(scope).run(data, ctx, path, ev, scope);
    ctx.depth++;
    return ok;
  };
}

/** A reference whose target is known at compile time, without the indirection of `traverse`. */
function staticRef(b: Build, keyword: string, node: SchemaNode): Check {
  const k = boundsOf(b, keyword);
  const memo = b.memoised(node);
  return (data, ctx, path, ev, scope) => {
    if (--ctx.depth < 0 || --ctx.steps < 0) limitReached(k, ctx);
    const ok =
      memo.on && ev === null ? runMemoised(node, data, ctx, path, scope) : node.run(data, ctx, path, ev, scope);
    ctx.depth++;
    return ok;
  };
}

function compileRef(b: Build): void {
  const ref = b.schema.$ref;
  if (typeof ref !== 'string') malformed(b, '$ref', 'a string');
  const { node } = b.ref(ref, '$ref');
  b.inPlace(node, true);
  b.on('any', staticRef(b, '$ref', node));
}

function compileDynamicRef(b: Build): void {
  const ref = b.schema.$dynamicRef;
  if (typeof ref !== 'string') malformed(b, '$dynamicRef', 'a string');
  const target = b.ref(ref, '$dynamicRef');
  b.inPlace(target.node, true);
  // Dynamic only when the reference is to a plain name that its static target declares as a dynamic
  // anchor; otherwise it is a plain $ref (2020-12 §8.2.3.2).
  const name =
    target.plainName && isObject(target.value) && target.value.$dynamicAnchor === target.fragment
      ? target.fragment
      : undefined;
  if (name === undefined) {
    b.on('any', staticRef(b, '$dynamicRef', target.node));
    return;
  }
  b.usesDynamicScope(name);
  b.on(
    'any',
    traverse(b, '$dynamicRef', (scope) => {
      // The outermost resource in the dynamic scope that declares the anchor wins.
      let found = target.node;
      for (let s = scope; s !== null; s = s.up) {
        const n = s.res.dynamicAnchors.get(name);
        if (n !== undefined) found = n;
      }
      return found;
    }),
  );
}

function compileRecursiveRef(b: Build): void {
  const ref = b.schema.$recursiveRef;
  if (typeof ref !== 'string') malformed(b, '$recursiveRef', 'a string');
  const target = b.ref(ref, '$recursiveRef');
  b.inPlace(target.node, true);
  const initial = target.info.res;
  // Only "#" to a resource root with `$recursiveAnchor: true` is dynamic (2019-09 §8.2.4.2).
  if (ref !== '#' || !initial.recursiveAnchor) {
    b.on('any', staticRef(b, '$recursiveRef', target.node));
    return;
  }
  b.usesDynamicScope(undefined);
  b.on(
    'any',
    traverse(b, '$recursiveRef', (scope) => {
      let found = target.node;
      for (let s = scope; s !== null; s = s.up) {
        if (s.res.recursiveAnchor && s.res.root !== undefined) found = s.res.root;
      }
      return found;
    }),
  );
}

export function compileReferences(b: Build): void {
  if (b.has('$ref')) compileRef(b);
  if (b.dialect === '2020-12' && b.has('$dynamicRef')) compileDynamicRef(b);
  if (b.dialect === '2019-09' && b.has('$recursiveRef')) compileRecursiveRef(b);
}
