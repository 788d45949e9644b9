// Assembling a compiled node's run function from its checks: by instance type, then the unevaluated keywords.

import type { Bucket } from './build.js';
import { mergeEvaluated, newEvaluated } from './runtime.js';
import type { Check, SchemaNode } from './runtime.js';

/** What compiling one schema object collected: its checks by bucket, the `last` ones, whether it collects. */
export interface NodeParts {
  readonly node: SchemaNode;
  readonly checks: Readonly<Record<Bucket, readonly Check[]>>;
  readonly last: readonly Check[];
  readonly collects: boolean;
}

const NONE: readonly Check[] = [];

/** The node's run function: its checks, by instance type, then the unevaluated keywords. */
export function assemble(p: NodeParts, dynamic: boolean): Check {
  const any = p.checks.any;
  const str = p.checks.string.length > 0 ? p.checks.string : NONE;
  const num = p.checks.number.length > 0 ? p.checks.number : NONE;
  const obj = p.checks.object.length > 0 ? p.checks.object : NONE;
  const arr = p.checks.array.length > 0 ? p.checks.array : NONE;
  const last = p.last;
  const collects = p.collects;
  const res = p.node.res;
  if (any.length + str.length + num.length + obj.length + arr.length + last.length === 0) return () => true;
  const single =
    !collects && !dynamic && str.length + num.length + obj.length + arr.length === 0 && any.length === 1
      ? any[0]
      : undefined;
  if (single !== undefined) return single;
  return (data, ctx, path, ev, scope) => {
    if (dynamic && scope !== null && scope.res !== res) scope = { res, up: scope };
    const local = collects ? newEvaluated() : ev;
    let ok = true;
    for (let i = 0; i < any.length; i++) {
      if (!(any[i] as Check)(data, ctx, path, local, scope)) {
        if (ctx.errors === null) return false;
        ok = false;
      }
    }
    let typed: readonly Check[];
    switch (typeof data) {
      case 'string':
        typed = str;
        break;
      case 'number':
        typed = num;
        break;
      case 'object':
        typed = data === null ? NONE : Array.isArray(data) ? arr : obj;
        break;
      default:
        typed = NONE;
    }
    for (let i = 0; i < typed.length; i++) {
      if (!(typed[i] as Check)(data, ctx, path, local, scope)) {
        if (ctx.errors === null) return false;
        ok = false;
      }
    }
    if (collects && local !== null) {
      for (let i = 0; i < last.length; i++) {
        if (!(last[i] as Check)(data, ctx, path, local, scope)) {
          if (ctx.errors === null) return false;
          ok = false;
        }
      }
      if (ev !== null) mergeEvaluated(ev, local);
    }
    return ok;
  };
}
