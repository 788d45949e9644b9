// Indexing: one walk over each document records every schema resource (`$id`), anchor and dynamic anchor.
//
// With them, references resolve at compile time, inside the documents only. The caller's objects are only read: what we
// learn is kept in our own maps, never written into the schema (which may be frozen, shared, or another tool's
// definition).

import { ALL_VOCABULARIES, SUPPORTED_DIALECTS, dialectOfUri, vocabularyOf } from './dialect.js';
import { SchemaErrorCode } from './codes.js';
import type { Dialect, Vocabulary } from './dialect.js';
import { SchemaError, SchemaLimitError, SchemaReferenceError, UnsupportedDialectError } from './errors.js';
import { hasOwn, isObject } from './json.js';
import type { JsonObject, JsonValue } from './json.js';
import type { ResolvedLimits } from './options.js';
import type { Resource, SchemaNode } from './runtime.js';
import { escapeToken, isAbsolute, pointerTokens, resolveUri, splitFragment } from './uri.js';

/** The base a document without an `$id` is read against: hierarchical, so relative references resolve. */
export const DEFAULT_BASE = 'mcpc:/schema.json';

export interface ResourceEntry extends Resource {
  readonly rootValue: JsonValue;
  readonly dialect: Dialect;
  readonly vocab: ReadonlySet<Vocabulary>;
  /** Where the resource root is, as a `schemaPath` prefix (`#`, `#/$defs/a`, `https://x/y.json#`). */
  readonly loc: string;
  readonly anchors: Map<string, JsonValue>;
}

/** A `$dynamicAnchor` declaration found by the walk (compiled to a node only if some `$dynamicRef` uses the name). */
export interface DynamicAnchorDecl {
  readonly res: ResourceEntry;
  readonly name: string;
  readonly value: JsonObject;
}

/** What compiling a subschema needs to know about where it sits. */
export interface SchemaInfo {
  readonly res: ResourceEntry;
  readonly loc: string;
  readonly dialect: Dialect;
  readonly vocab: ReadonlySet<Vocabulary>;
  /** The base URI references inside this subschema resolve against (its resource's URI). */
  readonly base: string;
}

interface Frame {
  readonly res: ResourceEntry;
  readonly dialect: Dialect;
  readonly vocab: ReadonlySet<Vocabulary>;
}

const SINGLE_COMMON = ['additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'];
const ARRAY_COMMON = ['allOf', 'anyOf', 'oneOf'];
/** Keywords whose value is (or holds) subschemas, per dialect: only these are walked for `$id`s. */
const SUBSCHEMA_KEYWORDS: Readonly<Record<Dialect, { single: string[]; array: string[]; map: string[] }>> = {
  'draft-07': {
    single: [...SINGLE_COMMON, 'additionalItems', 'items'],
    array: [...ARRAY_COMMON, 'items'],
    map: ['properties', 'patternProperties', 'definitions', 'dependencies'],
  },
  '2019-09': {
    single: [
      ...SINGLE_COMMON,
      'additionalItems',
      'items',
      'unevaluatedItems',
      'unevaluatedProperties',
      'contentSchema',
    ],
    array: [...ARRAY_COMMON, 'items'],
    map: ['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas'],
  },
  '2020-12': {
    single: [...SINGLE_COMMON, 'items', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'],
    array: [...ARRAY_COMMON, 'prefixItems'],
    map: ['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas'],
  },
};

const isSchema = (v: unknown): v is JsonObject | boolean => typeof v === 'boolean' || isObject(v);
const ANCHOR_RE = /^[A-Za-z_][-A-Za-z0-9._]*$/;

export class Registry {
  /** Schema resources by absolute URI (no fragment). */
  private readonly resources = new Map<string, ResourceEntry>();
  private readonly info = new Map<object, SchemaInfo>();
  private readonly indexedDocs = new Map<object, ResourceEntry>();
  private nodes = 0;
  /**
   * Every resource and every `$dynamicAnchor` declaration, in the order they were indexed. Append-only,
   * so the compiler visits each once (with a cursor) however many rounds of binding it takes.
   */
  readonly resourceList: ResourceEntry[] = [];
  readonly dynamicAnchorDecls: DynamicAnchorDecl[] = [];

  constructor(
    private readonly externals: ReadonlyMap<string, JsonValue>,
    private readonly limits: ResolvedLimits,
  ) {}

  /**
   * Indexes a document. `uri` is where it was found (the default base for the root schema, a key of
   * `resources` otherwise); `loc` is its `schemaPath` prefix; `dialect` applies when it has no `$schema`.
   */
  indexDocument(doc: JsonValue, uri: string, loc: string, dialect: Dialect | undefined): ResourceEntry {
    if (typeof doc === 'object' && doc !== null) {
      const seen = this.indexedDocs.get(doc);
      if (seen !== undefined) {
        this.alias(uri, seen);
        return seen;
      }
    }
    if (!isSchema(doc))
      throw new SchemaError(`the schema at ${uri} is not an object or a boolean`, { schemaPath: loc });
    const explicit =
      isObject(doc) && typeof doc.$schema === 'string' && dialect === undefined ? doc.$schema : undefined;
    const { dialect: d, vocab } =
      explicit === undefined
        ? { dialect: dialect ?? '2020-12', vocab: ALL_VOCABULARIES }
        : this.dialectOf(explicit, loc);
    let base = uri;
    if (isObject(doc)) {
      const id = this.idOf(doc, d);
      if (id !== undefined) base = splitFragment(resolveUri(id, uri)).base;
    }
    const res = this.newResource(base, doc, d, vocab, loc);
    if (base !== uri) this.alias(uri, res);
    if (typeof doc === 'object' && doc !== null) this.indexedDocs.set(doc, res);
    this.walk(doc, { res, dialect: d, vocab }, loc, 0, true);
    return res;
  }

  /** The subschema information recorded by the walk, if the value was walked. */
  infoOf(value: object): SchemaInfo | undefined {
    return this.info.get(value);
  }

  /**
   * The resource with this absolute URI, indexing a `resources` document or a meta-schema on first use.
   * A document without `$schema` is read in the dialect of the schema that refers to it.
   */
  resource(uri: string, dialect: Dialect): ResourceEntry | undefined {
    const known = this.resources.get(uri);
    if (known !== undefined) return known;
    const doc = this.externals.get(uri) ?? this.externals.get(uri + '#');
    if (doc === undefined) return undefined;
    const declared = isObject(doc) && typeof doc.$schema === 'string';
    this.indexDocument(doc, uri, uri + '#', declared ? undefined : dialect);
    return this.resources.get(uri);
  }

  /**
   * Resolves `ref` (as written at `at`) against `base`: the target value and where it sits.
   * Throws `SchemaReferenceError` when the document does not hold it.
   */
  resolve(
    ref: string,
    base: string,
    at: string,
    dialect: Dialect,
  ): { value: JsonValue; info: SchemaInfo; fragment: string } {
    const abs = resolveUri(ref, base);
    const { base: resUri, fragment } = splitFragment(abs);
    const res = this.resource(resUri, dialect);
    if (res === undefined) throw new SchemaReferenceError(ref, abs, true, at);
    let fragmentDecoded = fragment;
    try {
      fragmentDecoded = decodeURIComponent(fragment);
    } catch {
      // a malformed escape is looked up as written
    }
    if (fragment === '' || fragmentDecoded.startsWith('/')) {
      const tokens = pointerTokens(fragment);
      if (tokens === undefined) throw new SchemaReferenceError(ref, abs, false, at);
      let value: JsonValue = res.rootValue;
      let info = this.infoFor(value, res, res.loc);
      let loc = res.loc;
      for (const token of tokens) {
        if (Array.isArray(value)) {
          if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= value.length)
            throw new SchemaReferenceError(ref, abs, false, at);
          value = (value as JsonValue[])[Number(token)] as JsonValue;
        } else if (isObject(value) && hasOwn(value, token)) {
          value = value[token] as JsonValue;
        } else {
          throw new SchemaReferenceError(ref, abs, false, at);
        }
        loc += '/' + escapeToken(token);
        // Crossing into an embedded resource changes the base; the walk recorded it.
        if (typeof value === 'object' && value !== null) info = this.info.get(value) ?? { ...info, loc };
      }
      if (!isSchema(value)) throw new SchemaReferenceError(ref, abs, false, at);
      return { value, info: typeof value === 'object' ? info : { ...info, loc }, fragment };
    }
    const value = res.anchors.get(fragmentDecoded);
    if (value === undefined) throw new SchemaReferenceError(ref, abs, false, at);
    return { value, info: this.infoFor(value, res, res.loc), fragment: fragmentDecoded };
  }

  private infoFor(value: JsonValue, res: ResourceEntry, loc: string): SchemaInfo {
    const known = typeof value === 'object' && value !== null ? this.info.get(value) : undefined;
    return known ?? { res, loc, dialect: res.dialect, vocab: res.vocab, base: res.uri };
  }

  private alias(uri: string, res: ResourceEntry): void {
    const existing = this.resources.get(uri);
    if (existing === undefined) this.resources.set(uri, res);
  }

  /** The dialect and vocabularies a `$schema` value selects; a custom meta-schema must be in `resources`. */
  dialectOf(
    schemaUri: string,
    at: string,
    seen: Set<string> = new Set(),
  ): { dialect: Dialect; vocab: ReadonlySet<Vocabulary> } {
    const known = dialectOfUri(schemaUri);
    if (known !== undefined) return { dialect: known, vocab: ALL_VOCABULARIES };
    const uri = splitFragment(schemaUri).base;
    const meta = this.externals.get(uri) ?? this.externals.get(uri + '#');
    if (!isObject(meta) || seen.has(uri) || seen.size > 8)
      throw new UnsupportedDialectError(schemaUri, SUPPORTED_DIALECTS, at);
    seen.add(uri);
    const parent = typeof meta.$schema === 'string' ? this.dialectOf(meta.$schema, at, seen) : undefined;
    if (parent === undefined) throw new UnsupportedDialectError(schemaUri, SUPPORTED_DIALECTS, at);
    const declared = meta.$vocabulary;
    if (!isObject(declared) || parent.dialect === 'draft-07') return parent;
    const vocab = new Set<Vocabulary>();
    for (const [vocabUri, required] of Object.entries(declared)) {
      const v = vocabularyOf(vocabUri);
      if (v !== undefined) vocab.add(v);
      else if (required === true) {
        throw new SchemaError(
          `the meta-schema ${schemaUri} requires the vocabulary ${vocabUri}, which is not supported (supported dialects: ${SUPPORTED_DIALECTS.join(', ')})`,
          { code: SchemaErrorCode.UnsupportedVocabulary, schemaPath: at },
        );
      }
    }
    // 2019-09's applicator vocabulary carried the unevaluated keywords.
    if (parent.dialect === '2019-09' && vocab.has('applicator')) vocab.add('unevaluated');
    vocab.add('core');
    return { dialect: parent.dialect, vocab };
  }

  private idOf(schema: JsonObject, dialect: Dialect): string | undefined {
    const id = schema.$id;
    if (id === undefined) return undefined;
    if (typeof id !== 'string') throw new SchemaError('$id must be a string');
    // Draft-07: a `$ref` makes every sibling keyword, `$id` included, be ignored.
    if (dialect === 'draft-07' && hasOwn(schema, '$ref')) return undefined;
    return id;
  }

  private newResource(
    uri: string,
    root: JsonValue,
    dialect: Dialect,
    vocab: ReadonlySet<Vocabulary>,
    loc: string,
  ): ResourceEntry {
    const existing = this.resources.get(uri);
    if (existing !== undefined && existing.rootValue !== root) {
      throw new SchemaError(
        `two schema resources have the $id ${uri} (at ${existing.loc} and ${loc}); references to it would be ambiguous`,
        {
          code: SchemaErrorCode.DuplicateId,
          schemaPath: loc,
        },
      );
    }
    if (existing !== undefined) return existing;
    const res: ResourceEntry = {
      uri,
      rootValue: root,
      dialect,
      vocab,
      loc,
      anchors: new Map(),
      dynamicAnchors: new Map<string, SchemaNode>(),
      recursiveAnchor: false,
      root: undefined,
    };
    this.resources.set(uri, res);
    this.resourceList.push(res);
    return res;
  }

  private addAnchor(res: ResourceEntry, name: string, value: JsonObject, loc: string): void {
    const existing = res.anchors.get(name);
    if (existing !== undefined && existing !== value) {
      throw new SchemaError(
        `the anchor "${name}" is declared twice in ${res.uri} (the second at ${loc}); references to it would be ambiguous`,
        {
          code: SchemaErrorCode.DuplicateAnchor,
          schemaPath: loc,
        },
      );
    }
    res.anchors.set(name, value);
  }

  private walk(value: JsonValue, parent: Frame, loc: string, depth: number, isDocRoot: boolean): void {
    if (!isObject(value)) return;
    if (this.info.has(value)) return;
    if (++this.nodes > this.limits.maxSchemaNodes) {
      throw new SchemaLimitError(
        'maxSchemaNodes',
        this.limits.maxSchemaNodes,
        `the schema has more than ${this.limits.maxSchemaNodes} subschemas`,
        loc,
      );
    }
    if (depth > this.limits.maxSchemaDepth) {
      throw new SchemaLimitError(
        'maxSchemaDepth',
        this.limits.maxSchemaDepth,
        `the schema nests deeper than ${this.limits.maxSchemaDepth} subschemas`,
        loc,
      );
    }
    let frame = parent;
    let dialect = parent.dialect;
    const id = this.idOf(value, dialect);
    // 2019-09 and 2020-12 give a fragment-only `$id` no meaning (it is not an anchor there).
    if (id !== undefined && !isDocRoot && !(dialect !== 'draft-07' && id.startsWith('#'))) {
      const abs = resolveUri(id, parent.res.uri);
      const { base, fragment } = splitFragment(abs);
      if (dialect === 'draft-07' && id.startsWith('#')) {
        // A draft-07 `$id: "#name"` is a plain-name anchor, not a new resource.
        if (fragment !== '') this.addAnchor(parent.res, fragment, value, loc);
      } else {
        let vocab = parent.vocab;
        if (typeof value.$schema === 'string') ({ dialect, vocab } = this.dialectOf(value.$schema, loc));
        if (!isAbsolute(base))
          throw new SchemaError(`$id "${id}" does not resolve to an absolute URI`, { schemaPath: loc });
        const res = this.newResource(base, value, dialect, vocab, loc);
        frame = { res, dialect, vocab };
        if (dialect === 'draft-07' && fragment !== '') this.addAnchor(res, fragment, value, loc);
      }
    } else if (isDocRoot && dialect === 'draft-07' && id !== undefined) {
      const { fragment } = splitFragment(id);
      if (fragment !== '' && !fragment.startsWith('/')) this.addAnchor(parent.res, fragment, value, loc);
    }
    const res = frame.res;
    if (dialect !== 'draft-07') {
      const anchor = value.$anchor;
      if (anchor !== undefined) {
        if (typeof anchor !== 'string' || !ANCHOR_RE.test(anchor))
          throw new SchemaError(`$anchor must be a plain name, got ${JSON.stringify(anchor)}`, { schemaPath: loc });
        this.addAnchor(res, anchor, value, loc);
      }
      if (dialect === '2020-12') {
        const dyn = value.$dynamicAnchor;
        if (dyn !== undefined) {
          if (typeof dyn !== 'string' || !ANCHOR_RE.test(dyn))
            throw new SchemaError(`$dynamicAnchor must be a plain name, got ${JSON.stringify(dyn)}`, {
              schemaPath: loc,
            });
          this.addAnchor(res, dyn, value, loc);
          this.dynamicAnchorDecls.push({ res, name: dyn, value });
        }
      } else if (value.$recursiveAnchor === true && res.rootValue === value) {
        res.recursiveAnchor = true;
      }
    }
    this.info.set(value, { res, loc, dialect, vocab: frame.vocab, base: res.uri });
    // Draft-07: a `$ref` makes its siblings no schema at all.
    if (dialect === 'draft-07' && hasOwn(value, '$ref')) return;
    const kw = SUBSCHEMA_KEYWORDS[dialect];
    for (const k of kw.single) {
      if (hasOwn(value, k)) this.walk(value[k] as JsonValue, frame, loc + '/' + k, depth + 1, false);
    }
    for (const k of kw.array) {
      const arr = hasOwn(value, k) ? value[k] : undefined;
      if (Array.isArray(arr))
        arr.forEach((s: JsonValue, i: number) => this.walk(s, frame, `${loc}/${k}/${i}`, depth + 1, false));
    }
    for (const k of kw.map) {
      const map = hasOwn(value, k) ? value[k] : undefined;
      if (isObject(map)) {
        for (const name of Object.keys(map))
          this.walk(map[name] as JsonValue, frame, `${loc}/${k}/${escapeToken(name)}`, depth + 1, false);
      }
    }
  }
}
