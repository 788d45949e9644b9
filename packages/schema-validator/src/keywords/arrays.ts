// Applicators over array items: prefixItems/items, items/additionalItems, contains with minContains/maxContains.
//
// prefixItems/items is 2020-12's; items/additionalItems is draft-07's and 2019-09's.

import { isNonNegativeInteger, malformed } from '../build.js';
import type { Build } from '../build.js';
import type { JsonValue } from '../json.js';
import { child, fail } from '../runtime.js';
import type { Check, SchemaNode } from '../runtime.js';

/** Items from `from` on must each satisfy `node`; marks them evaluated. */
function rest(node: SchemaNode, from: number): Check {
  return (data, ctx, path, ev, scope) => {
    const d = data as unknown[];
    let ok = true;
    for (let i = from; i < d.length; i++) {
      if (!node.run(d[i], ctx, child(path, i), null, scope)) {
        if (ctx.errors === null) return false;
        ok = false;
      }
    }
    if (ev !== null && d.length > from) ev.allItems = true;
    return ok;
  };
}

/** Item `i` must satisfy `nodes[i]`; marks the prefix evaluated. */
function prefix(nodes: readonly SchemaNode[]): Check {
  return (data, ctx, path, ev, scope) => {
    const d = data as unknown[];
    const n = Math.min(d.length, nodes.length);
    let ok = true;
    for (let i = 0; i < n; i++) {
      if (!(nodes[i] as SchemaNode).run(d[i], ctx, child(path, i), null, scope)) {
        if (ctx.errors === null) return false;
        ok = false;
      }
    }
    if (ev !== null && n > ev.items) ev.items = n;
    return ok;
  };
}

function schemaArray(b: Build, kw: string): SchemaNode[] {
  const v = b.schema[kw];
  if (!Array.isArray(v)) malformed(b, kw, 'an array of schemas');
  return v.map((s: JsonValue, i: number) => b.sub(s, `${kw}/${i}`));
}

function compileItems(b: Build): void {
  if (b.dialect === '2020-12') {
    let n = 0;
    if (b.has('prefixItems')) {
      const nodes = schemaArray(b, 'prefixItems');
      n = nodes.length;
      if (n > 0) b.on('array', prefix(nodes));
    }
    if (b.has('items')) b.on('array', rest(b.sub(b.schema.items as JsonValue, 'items'), n));
    return;
  }
  if (!b.has('items')) return;
  const items = b.schema.items;
  if (!Array.isArray(items)) {
    b.on('array', rest(b.sub(items as JsonValue, 'items'), 0));
    return;
  }
  const nodes = schemaArray(b, 'items');
  if (nodes.length > 0) b.on('array', prefix(nodes));
  if (b.has('additionalItems'))
    b.on('array', rest(b.sub(b.schema.additionalItems as JsonValue, 'additionalItems'), nodes.length));
}

function compileContains(b: Build): void {
  const node = b.sub(b.schema.contains as JsonValue, 'contains');
  const limit = (kw: string): number | undefined => {
    if (b.dialect === 'draft-07' || !b.has(kw)) return undefined;
    const v = b.schema[kw];
    if (!isNonNegativeInteger(v)) malformed(b, kw, 'a non-negative integer');
    return v;
  };
  const min = limit('minContains') ?? 1;
  const max = limit('maxContains');
  const at = `${b.loc}/contains`;
  // 2020-12 makes the items `contains` matched count as evaluated for `unevaluatedItems`.
  const annotates = b.dialect === '2020-12';
  b.on('array', (data, ctx, path, ev, scope) => {
    const d = data as unknown[];
    const track = annotates && ev !== null && !ev.allItems;
    // Matching an item is not a failure of the instance: whatever the subschema reports is dropped.
    const mark = ctx.errors?.length ?? 0;
    let count = 0;
    for (let i = 0; i < d.length; i++) {
      if (node.run(d[i], ctx, child(path, i), null, scope)) {
        count++;
        if (track) (ev.itemSet ??= new Set()).add(i);
        // Without annotations to collect, stop once the answer is known.
        else if (count >= min && max === undefined) break;
      }
    }
    if (ctx.errors !== null) ctx.errors.length = mark;
    if (count < min) {
      return fail(
        ctx,
        path,
        min === 1 ? 'contains' : 'minContains',
        min === 1 ? at : `${b.loc}/minContains`,
        min === 1 ? 'must contain at least one matching item' : `must contain at least ${min} matching items`,
      );
    }
    if (max !== undefined && count > max)
      return fail(ctx, path, 'maxContains', `${b.loc}/maxContains`, `must contain at most ${max} matching items`);
    return true;
  });
}

export function compileArrayApplicators(b: Build): void {
  compileItems(b);
  if (b.has('contains')) compileContains(b);
}
