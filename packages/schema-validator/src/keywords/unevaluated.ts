// unevaluatedProperties / unevaluatedItems: they apply to what nothing else in the subschema evaluated.
//
// Nothing else: no other keyword of the subschema, nor any in-place applicator that passed ($ref, allOf, anyOf, oneOf,
// if/then/else, dependentSchemas). The subschema collects those annotations (`Build.collectsAnnotations`) and these run
// last.

import type { Build } from '../build.js';
import type { JsonValue } from '../json.js';
import { addProp, child, fail, show } from '../runtime.js';

export function compileUnevaluated(b: Build): void {
  if (b.has('unevaluatedProperties')) {
    const node = b.sub(b.schema.unevaluatedProperties as JsonValue, 'unevaluatedProperties');
    const isFalse = b.schema.unevaluatedProperties === false;
    const at = `${b.loc}/unevaluatedProperties`;
    b.collectsAnnotations();
    b.last((data, ctx, path, ev, scope) => {
      if (typeof data !== 'object' || data === null || Array.isArray(data) || ev === null || ev.allProps) return true;
      const d = data as Record<string, unknown>;
      const seen = ev.props;
      let ok = true;
      for (const key of Object.keys(d)) {
        if (seen !== null && seen.has(key)) continue;
        const passed = isFalse
          ? fail(ctx, path, 'unevaluatedProperties', at, `must not have unevaluated property ${show(key)}`)
          : node.run(d[key], ctx, child(path, key), null, scope);
        if (!passed) {
          if (ctx.errors === null) return false;
          ok = false;
        }
      }
      if (ok) ev.allProps = true;
      else for (const key of Object.keys(d)) addProp(ev, key);
      return ok;
    });
  }
  if (b.has('unevaluatedItems')) {
    const node = b.sub(b.schema.unevaluatedItems as JsonValue, 'unevaluatedItems');
    const isFalse = b.schema.unevaluatedItems === false;
    const at = `${b.loc}/unevaluatedItems`;
    b.collectsAnnotations();
    b.last((data, ctx, path, ev, scope) => {
      if (!Array.isArray(data) || ev === null || ev.allItems) return true;
      const seen = ev.itemSet;
      let ok = true;
      for (let i = ev.items; i < data.length; i++) {
        if (seen !== null && seen.has(i)) continue;
        const passed = isFalse
          ? fail(ctx, path, 'unevaluatedItems', at, `must not have unevaluated item ${i}`)
          : node.run(data[i], ctx, child(path, i), null, scope);
        if (!passed) {
          if (ctx.errors === null) return false;
          ok = false;
        }
      }
      ev.allItems = true;
      return ok;
    });
  }
}
