// The `x-mcp-header` annotations of a tool's input schema, and the request headers they produce.
import { encodeHeaderValue } from '../server/headers.js';

/** One `x-mcp-header` annotation: the header's name part and the property path it mirrors. */
export interface ParamHeader {
  /** Lower-cased `mcp-param-{name}`, as the transport keys headers. */
  readonly header: string;
  readonly path: readonly string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
// RFC 9110 token: 1*tchar.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);
const KEY = 'x-mcp-header';
const MAX_NODES = 10_000;
const MAX_DEPTH = 64;

/**
 * The `x-mcp-header` annotations of a tool's input schema (MCP 2026-07-28), or why they make the tool
 * invalid: a name that is empty or not an HTTP token, a duplicate (case-insensitive), a type other
 * than string/integer/boolean, or an annotation that is not statically reachable from the root through
 * `properties` alone (inside `items`, a composition, a conditional, `$ref`/`$defs`, …). Bounded in
 * the work a hostile schema can cause.
 */
export function readParamHeaders(schema: unknown): readonly ParamHeader[] | string {
  const found: ParamHeader[] = [];
  const names = new Set<string>();
  let reachable = 0;
  const walk = (node: Record<string, unknown>, path: string[]): string | undefined => {
    if (path.length > MAX_DEPTH) return 'the schema nests too deeply';
    const properties = node.properties;
    if (!isObject(properties)) return undefined;
    for (const [key, property] of Object.entries(properties)) {
      if (!isObject(property)) continue;
      const here = [...path, key];
      if (Object.hasOwn(property, KEY)) {
        reachable++;
        const name = property[KEY];
        if (typeof name !== 'string' || name.length === 0)
          return `"${here.join('.')}": the x-mcp-header value must be a non-empty string`;
        if (!TOKEN.test(name))
          return `"${here.join('.')}": the x-mcp-header value "${name.slice(0, 64)}" is not an HTTP token`;
        const lower = name.toLowerCase();
        if (names.has(lower)) return `"${here.join('.')}": the x-mcp-header value "${name.slice(0, 64)}" is used twice`;
        names.add(lower);
        if (!PRIMITIVES.has(property.type))
          return `"${here.join('.')}": x-mcp-header applies only to string, integer and boolean parameters`;
        found.push({ header: `mcp-param-${lower}`, path: here });
      }
      const nested = walk(property, here);
      if (nested !== undefined) return nested;
    }
    return undefined;
  };
  if (!isObject(schema)) return [];
  const problem = walk(schema, []);
  if (problem !== undefined) return problem;
  const total = countAnnotations(schema);
  if (total === undefined) return 'the schema is too large to check';
  if (total !== reachable)
    return 'an x-mcp-header annotation is not statically reachable through "properties" (it sits under items, a composition, a conditional or a $ref)';
  return found;
}

// Keywords whose value maps names to schemas: their keys are names, never annotations.
const MAPS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/** Every `x-mcp-header` annotation anywhere in the schema (undefined past the node bound). */
function countAnnotations(schema: unknown): number | undefined {
  let count = 0;
  let nodes = 0;
  const stack: { node: unknown; map: boolean }[] = [{ node: schema, map: false }];
  while (stack.length > 0) {
    const { node, map } = stack.pop()!;
    if (++nodes > MAX_NODES) return undefined;
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === 'object' && item !== null) stack.push({ node: item, map: false });
      continue;
    }
    if (!isObject(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      if (!map && key === KEY) count++;
      if (typeof value === 'object' && value !== null) stack.push({ node: value, map: !map && MAPS.has(key) });
    }
  }
  return count;
}

/**
 * The `Mcp-Param-*` headers of a call: each annotated argument present (and not null) at its exact
 * property path, as a string (integers in decimal, booleans as `true`/`false`), encoded where it is
 * not a safe header value.
 */
export function paramHeaders(
  annotations: readonly ParamHeader[],
  args: Readonly<Record<string, unknown>> | undefined,
): Record<string, string> | undefined {
  if (annotations.length === 0 || args === undefined) return undefined;
  let out: Record<string, string> | undefined;
  for (const { header, path } of annotations) {
    let value: unknown = args;
    for (const key of path) value = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
    let text: string | undefined;
    if (typeof value === 'string') text = value;
    else if (typeof value === 'boolean') text = value ? 'true' : 'false';
    else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
    if (text === undefined) continue;
    (out ??= {})[header] = encodeHeaderValue(text);
  }
  return out;
}
