// The compiler: turns an indexed schema into a graph of nodes, one per subschema that can be reached from the root.
//
// Work is a queue, not recursion, so long `$ref` chains cost no stack; each subschema is compiled once however many
// references reach it, and cycles through references are fine as long as each turn of the cycle descends into the
// instance (checked at the end, in graph.ts). Each node's run function is put together in assemble.ts.

import { assemble } from './assemble.js';
import { VOCABULARY_OF } from './build.js';
import type { Build, Bucket } from './build.js';
import { KEYWORD_VOCABULARY } from './dialect.js';
import type { Vocabulary } from './dialect.js';
import { SchemaError, SchemaLimitError } from './errors.js';
import { checkCycles, markShared } from './graph.js';
import type { Edge } from './graph.js';
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
import type { DynamicAnchorDecl, Registry, ResourceEntry, SchemaInfo } from './registry.js';
import type { AnnotationKeyword } from './result.js';
import { fail } from './runtime.js';
import type { Check, SchemaNode } from './runtime.js';
import { splitFragment } from './uri.js';

interface Pending {
  readonly node: SchemaNode & { run: Check };
  readonly value: JsonObject;
  readonly info: SchemaInfo;
  readonly checks: Record<Bucket, Check[]>;
  readonly last: Check[];
  readonly edges: Edge[];
  collects: boolean;
}

/**
 * Where a `$dynamicRef` to `name` may land: every node declaring the anchor. One per name, so each
 * `$dynamicRef` site costs one edge in the cycle check, not one per resource (sites × resources was
 * quadratic in time and memory).
 */
interface DynamicHub {
  readonly node: SchemaNode;
  readonly targets: Edge[];
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
  /** Anchor names some `$dynamicRef` may re-bind to. */
  private readonly hubs = new Map<string, DynamicHub>();
  /** Names that became used since the last binding round. */
  private newNames: string[] = [];
  /** `$dynamicAnchor` declarations seen so far, by name, and how far the registry's lists were read. */
  private readonly declsByName = new Map<string, DynamicAnchorDecl[]>();
  private declsRead = 0;
  private resourcesRead = 0;
  /** Per reference target, whether references to it memoise (decided in `finish`). */
  private readonly memoFlags = new Map<SchemaNode, { on: boolean }>();

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
      return {
        run: (_d, ctx, path) => fail(ctx, path, 'false', at, 'no value is allowed here (the schema is false)'),
        loc: at,
        res: info.res,
      };
    }
    if (!isObject(value))
      throw new SchemaError(`the schema at ${info.loc} must be an object or a boolean`, { schemaPath: info.loc });
    const known = this.nodes.get(value);
    if (known !== undefined) return known.node;
    const node = { run: notYet, loc: info.loc, res: info.res };
    const p: Pending = {
      node,
      value,
      info,
      checks: { any: [], string: [], number: [], object: [], array: [] },
      last: [],
      edges: [],
      collects: false,
    };
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
    const edgesOf = new Map<SchemaNode, readonly Edge[]>();
    for (const p of this.nodes.values()) edgesOf.set(p.node, p.edges);
    const inPlace = new Map(edgesOf);
    for (const hub of this.hubs.values()) edgesOf.set(hub.node, hub.targets);
    const order = checkCycles(edgesOf, this.limits.maxRefDepth);
    // A dynamic scope makes a result depend on more than the node and the value: no memoising then.
    if (!this.dynamic) markShared(order, inPlace, this.memoFlags);
  }

  /**
   * Compiles the nodes the dynamic scope may re-bind to; true when that queued more work. Each
   * declaration and resource is visited once over all rounds (the registry's lists only grow).
   */
  private bindDynamic(): boolean {
    let more = false;
    const bind = (d: DynamicAnchorDecl, hub: DynamicHub): void => {
      if (d.res.dynamicAnchors.has(d.name)) return;
      const info = this.registry.infoOf(d.value);
      if (info === undefined) return;
      const node = this.node(d.value, info);
      d.res.dynamicAnchors.set(d.name, node);
      hub.targets.push({ node, ref: false });
      more = true;
    };
    // Names a $dynamicRef started using: bind the declarations already seen.
    const names = this.newNames;
    this.newNames = [];
    for (const name of names) {
      const hub = this.hubs.get(name) as DynamicHub;
      for (const d of this.declsByName.get(name) ?? []) bind(d, hub);
    }
    // Declarations indexed since the last round: bind those whose name is used, keep the rest.
    const decls = this.registry.dynamicAnchorDecls;
    for (; this.declsRead < decls.length; this.declsRead++) {
      const d = decls[this.declsRead] as DynamicAnchorDecl;
      let list = this.declsByName.get(d.name);
      if (list === undefined) this.declsByName.set(d.name, (list = []));
      list.push(d);
      const hub = this.hubs.get(d.name);
      if (hub !== undefined) bind(d, hub);
    }
    const resources = this.registry.resourceList;
    for (; this.resourcesRead < resources.length; this.resourcesRead++) {
      const res = resources[this.resourcesRead] as ResourceEntry;
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
      maxSchemaDepth: limits.maxSchemaDepth,
      maxEvaluationSteps: limits.maxEvaluationSteps,
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
      memoised: (node) => {
        let flag = this.memoFlags.get(node);
        if (flag === undefined) this.memoFlags.set(node, (flag = { on: false }));
        return flag;
      },
      inPlace(node, ref = false) {
        p.edges.push({ node, ref });
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
        if (typeof source !== 'string')
          throw new SchemaError(`the pattern at ${where} must be a string`, { schemaPath: where });
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
          throw new SchemaError(
            `the pattern at ${where} is not an ECMA-262 regular expression (u flag): ${compiled.message}`,
            { schemaPath: where, cause: compiled },
          );
        }
        return patternTester(compiled, budget, at.split('/')[0] ?? 'pattern', where);
      },
      ref: (ref, keyword) => {
        const at = `${loc}/${keyword}`;
        const target = registry.resolve(ref, info.base, at, dialect);
        const fragment = target.fragment;
        const plainName = fragment !== '' && !fragment.startsWith('/') && splitFragment(ref).fragment !== '';
        return {
          node: this.node(target.value, target.info),
          value: target.value,
          info: target.info,
          fragment,
          plainName,
        };
      },
      annotation: (keyword) => {
        this.partial.add(keyword);
      },
      usesDynamicScope: (name) => {
        this.dynamic = true;
        if (name === undefined) return;
        let hub = this.hubs.get(name);
        if (hub === undefined) {
          hub = { node: { run: notYet, loc: `(any $dynamicAnchor "${name}")`, res: info.res }, targets: [] };
          this.hubs.set(name, hub);
          this.newNames.push(name);
        }
        p.edges.push({ node: hub.node, ref: true });
      },
    };
  }
}
