// The shapes the compiled evaluator runs on.
//
// A schema compiles to a graph of `SchemaNode`s whose `run` closures check an instance; nothing is interpreted at
// validation time and no code is generated (no `eval`, no `new Function`), so it runs wherever a CSP forbids them.

import type { ValidationIssue } from './result.js';
import { escapeToken } from './uri.js';

/**
 * A schema resource (a document root or a subschema with `$id`): what `$dynamicRef` and `$recursiveRef`
 * look up in the dynamic scope.
 */
export interface Resource {
  readonly uri: string;
  /** `$dynamicAnchor` names declared in this resource, to the node that declares each. */
  readonly dynamicAnchors: Map<string, SchemaNode>;
  /** 2019-09 `$recursiveAnchor: true` at the resource root. */
  recursiveAnchor: boolean;
  /** The resource root's node, once compiled. */
  root: SchemaNode | undefined;
}

/** The instance location, as a linked list that is only built when errors are collected. */
export interface Path {
  readonly up: Path | null;
  readonly key: string | number;
}

/**
 * Which properties and items of the instance location some keyword evaluated successfully: the
 * annotations `unevaluatedProperties`/`unevaluatedItems` read. Only allocated below a schema that has one.
 */
export interface Evaluated {
  props: Set<string> | null;
  allProps: boolean;
  /** Items `0 … items-1` were evaluated (prefixItems, array-form items). */
  items: number;
  /** Items `contains` matched (2020-12). */
  itemSet: Set<number> | null;
  allItems: boolean;
}

/** The dynamic scope: the schema resources the evaluation entered, innermost first. */
export interface Scope {
  readonly res: Resource;
  readonly up: Scope | null;
}

export interface Ctx {
  /** Collected issues, or null when only validity is wanted (no paths are built then). */
  readonly errors: ValidationIssue[] | null;
  readonly maxErrors: number;
  /** Reference depth left before evaluation stops with a depth error. */
  depth: number;
  /** References this evaluation may still follow in total (`limits.maxEvaluationSteps`). */
  steps: number;
  /** Results of shared reference targets at one instance location, made on first use (see `keywords/memo.ts`). */
  memo?: Memo;
}

export interface Memo {
  size: number;
  readonly byNode: Map<
    SchemaNode,
    Map<unknown, { readonly path: Path | null; readonly issues: readonly ValidationIssue[] | null }>
  >;
}

export type Check = (data: unknown, ctx: Ctx, path: Path | null, ev: Evaluated | null, scope: Scope | null) => boolean;

export interface SchemaNode {
  run: Check;
  readonly loc: string;
  readonly res: Resource;
}

export const newEvaluated = (): Evaluated => ({
  props: null,
  allProps: false,
  items: 0,
  itemSet: null,
  allItems: false,
});

/** Adds `from`'s annotations to `into`: a passing in-place subschema's annotations are its parent's. */
export function mergeEvaluated(into: Evaluated, from: Evaluated): void {
  if (from.allProps) into.allProps = true;
  else if (from.props !== null && !into.allProps) {
    if (into.props === null) into.props = new Set(from.props);
    else for (const p of from.props) into.props.add(p);
  }
  if (from.allItems) into.allItems = true;
  else if (!into.allItems) {
    if (from.items > into.items) into.items = from.items;
    if (from.itemSet !== null) {
      if (into.itemSet === null) into.itemSet = new Set(from.itemSet);
      else for (const i of from.itemSet) into.itemSet.add(i);
    }
  }
}

export function addProp(ev: Evaluated, name: string): void {
  if (ev.allProps) return;
  (ev.props ??= new Set()).add(name);
}

/** The instance root when issues are collected (null stands for "no paths"). */
export const ROOT: Path = { up: null, key: '' };

export const child = (path: Path | null, key: string | number): Path | null =>
  path === null ? null : { up: path, key };

export function pointer(path: Path | null): string {
  const keys: string[] = [];
  for (let p: Path | null = path; p !== null && p.up !== null; p = p.up)
    keys.push(typeof p.key === 'number' ? String(p.key) : escapeToken(p.key));
  return keys.length === 0 ? '' : '/' + keys.reverse().join('/');
}

/** Records an issue when issues are collected. Always returns false, so a check can `return fail(…)`. */
export function fail(ctx: Ctx, path: Path | null, keyword: string, schemaPath: string, message: string): false {
  const errors = ctx.errors;
  if (errors !== null && errors.length < ctx.maxErrors) {
    errors.push({ instancePath: pointer(path), keyword, schemaPath, message });
  }
  return false;
}

/** A short, printable excerpt of a value for a message: schema values are the author's, not secret. */
export function show(value: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > 60 ? s.slice(0, 57) + '...' : s;
}
