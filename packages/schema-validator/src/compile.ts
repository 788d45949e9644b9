// The compiler: turns an indexed schema into a graph of nodes, one per subschema that can be reached
// from the root. Work is a queue, not recursion, so long `$ref` chains cost no stack; each subschema is
// compiled once however many references reach it, and cycles through references are fine as long as
// each turn of the cycle descends into the instance (checked at the end).

import { VOCABULARY_OF } from './build.js';
import type { Build, Bucket } from './build.js';
import { KEYWORD_VOCABULARY } from './dialect.js';
import type { Vocabulary } from './dialect.js';
import { SchemaError, SchemaLimitError } from './errors.js';
import { hasOwn, isObject } from './json.js';
import type { JsonObject, JsonValue } from './json.js';
import { compileArrayApplicators } from './keywords/arrays.js';
import { compileAssertions } from './keywords/assertions.js';
import { compileLogic } from './keywords/logic.js';
import { compileObjectApplicators } from './keywords/objects.js';
import { compileReferences } from './keywords/references.js';
import { compileUnevaluated } from './keywords/unevaluated.js';
import type { ResolvedLimits } from './options.js';
import { compilePattern, patternTester } from './pattern.js';
import type { PatternTest } from './pattern.js';
import type { Registry, SchemaInfo } from './registry.js';
import type { AnnotationKeyword } from './result.js';
import { fail, mergeEvaluated, newEvaluated } from './runtime.js';
import type { Check, SchemaNode } from './runtime.js';
import { splitFragment } from './uri.js';

interface Pending {
  readonly node: SchemaNode & { run: Check };
  readonly value: JsonObject;
  readonly info: SchemaInfo;
  readonly checks: Record<Bucket, Check[]>;
  readonly last: Check[];
  readonly edges: SchemaNode[];
  collects: boolean;
}

const ANNOTATIONS: readonly AnnotationKeyword[] = ['format', 'contentMediaType', 'contentEncoding', 'contentSchema'];

const notYet: Check = () => {
  throw new Error('internal: a schema node ran before compilation finished');
};

export class Compiler {
  readonly partial = new Set<AnnotationKeyword>();
  dynamic = false;
  private readonly nodes = new Map<object, Pending>();
  private readonly queue: Pending[] = [];
  /** Anchor names some `$dynamicRef` may re-bind to, and the edge lists of the nodes holding one. */
  private readonly dynamicNames = new Set<string>();
  private readonly dynamicEdgeSites: { name: string; sites: SchemaNode[] }[] = [];

  constructor(
    private readonly registry: Registry,
    private readonly limits: ResolvedLimits,
    private readonly patternBudgetMs: number,
  ) {}

  /** The node for a schema value sitting where `info` says. Objects are compiled once (queued). */
  node(value: JsonValue, info: SchemaInfo): SchemaNode {
    if (value === true) return { run: () => true, loc: info.loc, res: info.res };
    if (value === false) {
      const at = info.loc;
      return { run: (_d, ctx, path) => fail(ctx, path, 'false', at, 'no value is allowed here (the schema is false)'), loc: at, res: info.res };
    }
    if (!isObject(value)) throw new SchemaError(`the schema at ${info.loc} must be an object or a boolean`, { schemaPath: info.loc });
    const known = this.nodes.get(value);
    if (known !== undefined) return known.node;
    const node = { run: notYet, loc: info.loc, res: info.res };
    const p: Pending = { node, value, info, checks: { any: [], string: [], number: [], object: [], array: [] }, last: [], edges: [], collects: false };
    this.nodes.set(value, p);
    this.queue.push(p);
    if (info.res.rootValue === value) info.res.root = node;
    return node;
  }

  /** Compiles everything reachable, then wires the dynamic scope and checks for reference cycles. */
  finish(): void {
    for (;;) {
      let p: Pending | undefined;
      while ((p = this.queue.pop()) !== undefined) this.compileOne(p);
      if (!this.dynamic || !this.bindDynamic()) break;
    }
    for (const p of this.nodes.values()) p.node.run = assemble(p, this.dynamic);
    this.checkCycles();
  }

  /** Compiles the nodes the dynamic scope may re-bind to; true when that queued more work. */
  private bindDynamic(): boolean {
    let more = false;
    for (const res of this.registry.allResources()) {
      for (const [name, value] of res.dynamicAnchorValues) {
        if (!this.dynamicNames.has(name) || res.dynamicAnchors.has(name)) continue;
        const info = this.registry.infoOf(value);
        if (info === undefined) continue;
        res.dynamicAnchors.set(name, this.node(value, info));
        more = true;
      }
      if (res.recursiveAnchor && res.root === undefined && isObject(res.rootValue)) {
        const info = this.registry.infoOf(res.rootValue);
        if (info !== undefined) {
          this.node(res.rootValue, info);
          more = true;
        }
      }
    }
    return more || this.queue.length > 0;
  }

  private compileOne(p: Pending): void {
    const { value: schema, info } = p;
    const b = this.buildFor(p);
    // Draft-07: `$ref` stands alone; its siblings are not keywords.
    if (info.dialect === 'draft-07' && hasOwn(schema, '$ref')) {
      compileReferences(b);
      return;
    }
    for (const k of ANNOTATIONS) if (b.has(k)) b.annotation(k);
    compileReferences(b);
    compileAssertions(b);
    compileLogic(b);
    compileObjectApplicators(b);
    compileArrayApplicators(b);
    if (info.dialect !== 'draft-07') compileUnevaluated(b);
  }

  private buildFor(p: Pending): Build {
    const { value: schema, info } = p;
    const loc = info.loc;
    const vocab = info.vocab;
    const dialect = info.dialect;
    const registry = this.registry;
    const limits = this.limits;
    const budget = this.patternBudgetMs;
    return {
      schema,
      info,
      loc,
      dialect,
      maxRefDepth: limits.maxRefDepth,
      has(keyword) {
        if (!hasOwn(schema, keyword)) return false;
        const v: Vocabulary | undefined = KEYWORD_VOCABULARY[keyword];
        return v === undefined || VOCABULARY_OF(dialect, vocab, v);
      },
      sub: (value, at) => {
        const subLoc = `${loc}/${at}`;
        const known = typeof value === 'object' && value !== null ? registry.infoOf(value) : undefined;
        return this.node(value, known ?? { ...info, loc: subLoc });
      },
      inPlace(node) {
        p.edges.push(node);
      },
      on(bucket, check) {
        p.checks[bucket].push(check);
      },
      last(check) {
        p.last.push(check);
      },
      collectsAnnotations() {
        p.collects = true;
      },
      pattern(source, at): PatternTest {
        const where = `${loc}/${at}`;
        if (typeof source !== 'string') throw new SchemaError(`the pattern at ${where} must be a string`, { schemaPath: where });
        if (source.length > limits.maxPatternLength) {
          throw new SchemaLimitError(
            'maxPatternLength',
            limits.maxPatternLength,
            `the pattern at ${where} is ${source.length} characters long; patterns are limited to ${limits.maxPatternLength}`,
            where,
          );
        }
        const compiled = compilePattern(source);
        if (compiled instanceof SyntaxError) {
          throw new SchemaError(`the pattern at ${where} is not an ECMA-262 regular expression (u flag): ${compiled.message}`, { schemaPath: where, cause: compiled });
        }
        return patternTester(compiled, budget, at.split('/')[0] ?? 'pattern', where);
      },
      ref: (ref, keyword) => {
        const at = `${loc}/${keyword}`;
        const target = registry.resolve(ref, info.base, at, dialect);
        const fragment = target.fragment;
        const plainName = fragment !== '' && !fragment.startsWith('/') && splitFragment(ref).fragment !== '';
        return { node: this.node(target.value, target.info), value: target.value, info: target.info, fragment, plainName };
      },
      annotation: (keyword) => {
        this.partial.add(keyword);
      },
      usesDynamicScope: (name) => {
        this.dynamic = true;
        if (name !== undefined) {
          this.dynamicNames.add(name);
          this.dynamicEdgeSites.push({ name, sites: p.edges });
        }
      },
    };
  }

  /**
   * A cycle of references that never descends into the instance (`{"$ref": "#"}`, `allOf` back to the
   * root) would recurse for ever on some instance: such a schema is refused here, with the cycle.
   */
  private checkCycles(): void {
    const edgesOf = new Map<SchemaNode, SchemaNode[]>();
    for (const p of this.nodes.values()) edgesOf.set(p.node, p.edges);
    // A $dynamicRef may land on any node declaring its anchor.
    for (const { name, sites } of this.dynamicEdgeSites) {
      for (const res of this.registry.allResources()) {
        const n = res.dynamicAnchors.get(name);
        if (n !== undefined) sites.push(n);
      }
    }
    const WHITE = 0;
    const GREY = 1;
    const BLACK = 2;
    const color = new Map<SchemaNode, number>();
    for (const start of edgesOf.keys()) {
      if ((color.get(start) ?? WHITE) !== WHITE) continue;
      const stack: { node: SchemaNode; next: number }[] = [{ node: start, next: 0 }];
      color.set(start, GREY);
      while (stack.length > 0) {
        const top = stack[stack.length - 1] as { node: SchemaNode; next: number };
        const edges = edgesOf.get(top.node) ?? [];
        if (top.next >= edges.length) {
          color.set(top.node, BLACK);
          stack.pop();
          continue;
        }
        const to = edges[top.next++] as SchemaNode;
        const c = color.get(to) ?? WHITE;
        if (c === GREY) {
          const from = stack.findIndex((f) => f.node === to);
          const cycle = [...stack.slice(from).map((f) => f.node.loc), to.loc].join(' → ');
          throw new SchemaError(`the schema refers to itself without descending into the instance (${cycle}); evaluating it would never end`, {
            code: 'MCPC_SCHEMA_REF_CYCLE',
            schemaPath: to.loc,
          });
        }
        if (c === WHITE && edgesOf.has(to)) {
          color.set(to, GREY);
          stack.push({ node: to, next: 0 });
        }
      }
    }
  }
}

const NONE: readonly Check[] = [];

/** The node's run function: its checks, by instance type, then the unevaluated keywords. */
function assemble(p: Pending, dynamic: boolean): Check {
  const any = p.checks.any;
  const str = p.checks.string.length > 0 ? p.checks.string : NONE;
  const num = p.checks.number.length > 0 ? p.checks.number : NONE;
  const obj = p.checks.object.length > 0 ? p.checks.object : NONE;
  const arr = p.checks.array.length > 0 ? p.checks.array : NONE;
  const last = p.last;
  const collects = p.collects;
  const res = p.node.res;
  if (any.length + str.length + num.length + obj.length + arr.length + last.length === 0) return () => true;
  const single = !collects && !dynamic && str.length + num.length + obj.length + arr.length === 0 && any.length === 1 ? any[0] : undefined;
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

