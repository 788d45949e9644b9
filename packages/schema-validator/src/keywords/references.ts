// $ref, $dynamicRef (2020-12) and $recursiveRef (2019-09). All three are resolved at compile time to a
// node; the dynamic two may be re-bound at run time to a resource of the dynamic scope. Every traversal
// counts against `limits.maxRefDepth`, so a recursive schema over a hostile, deeply nested instance
// ends with an issue instead of a stack overflow.

import { malformed } from '../build.js';
import type { Build } from '../build.js';
import { isObject } from '../json.js';
import { EvaluationAborted } from '../pattern.js';
import type { Check, SchemaNode } from '../runtime.js';

function traverse(b: Build, keyword: string, resolve: (scope: Parameters<Check>[4]) => SchemaNode): Check {
  const at = `${b.loc}/${keyword}`;
  const max = b.maxRefDepth;
  return (data, ctx, path, ev, scope) => {
    if (--ctx.depth < 0) {
      // Aborting (rather than failing this branch) keeps a `not` around it from turning it into a pass.
      throw new EvaluationAborted(keyword, at, `references nest deeper than ${max} (limits.maxRefDepth) on this value, so it cannot be validated`);
    }
    const ok = resolve(scope).run(data, ctx, path, ev, scope);
    ctx.depth++;
    return ok;
  };
}

function compileRef(b: Build): void {
  const ref = b.schema.$ref;
  if (typeof ref !== 'string') malformed(b, '$ref', 'a string');
  const { node } = b.ref(ref, '$ref');
  b.inPlace(node);
  const at = `${b.loc}/$ref`;
  const max = b.maxRefDepth;
  // The static case, without the indirection of `traverse`: the most common reference by far.
  b.on('any', (data, ctx, path, ev, scope) => {
    if (--ctx.depth < 0) throw new EvaluationAborted('$ref', at, `references nest deeper than ${max} (limits.maxRefDepth) on this value, so it cannot be validated`);
    const ok = node.run(data, ctx, path, ev, scope);
    ctx.depth++;
    return ok;
  });
}

function compileDynamicRef(b: Build): void {
  const ref = b.schema.$dynamicRef;
  if (typeof ref !== 'string') malformed(b, '$dynamicRef', 'a string');
  const target = b.ref(ref, '$dynamicRef');
  b.inPlace(target.node);
  // Dynamic only when the reference is to a plain name that its static target declares as a dynamic
  // anchor; otherwise it is a plain $ref (2020-12 §8.2.3.2).
  const name = target.plainName && isObject(target.value) && target.value.$dynamicAnchor === target.fragment ? target.fragment : undefined;
  if (name === undefined) {
    b.on('any', traverse(b, '$dynamicRef', () => target.node));
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
  b.inPlace(target.node);
  const initial = target.info.res;
  // Only "#" to a resource root with `$recursiveAnchor: true` is dynamic (2019-09 §8.2.4.2).
  if (ref !== '#' || !initial.recursiveAnchor) {
    b.on('any', traverse(b, '$recursiveRef', () => target.node));
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
