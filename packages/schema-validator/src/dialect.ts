// The three dialects MCP clients meet: 2020-12 (the MCP default), 2019-09 and draft-07.
//
// A dialect decides which keywords exist and how `$ref`, `$id` and `items` behave; within 2019-09 and 2020-12 a
// meta-schema's `$vocabulary` can switch whole groups of keywords off.

export type Dialect = '2020-12' | '2019-09' | 'draft-07';

export const DIALECT_URIS: Readonly<Record<Dialect, string>> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};

export const SUPPORTED_DIALECTS: readonly string[] = Object.values(DIALECT_URIS);

/** Keyword groups. Draft-07 has no vocabularies: every group is on. */
export type Vocabulary = 'core' | 'applicator' | 'unevaluated' | 'validation' | 'meta-data' | 'format' | 'content';

export const ALL_VOCABULARIES: ReadonlySet<Vocabulary> = new Set<Vocabulary>([
  'core',
  'applicator',
  'unevaluated',
  'validation',
  'meta-data',
  'format',
  'content',
]);

/** The vocabulary URIs of 2019-09 and 2020-12, to the group each turns on. */
const VOCABULARY_URIS: ReadonlyMap<string, Vocabulary> = new Map<string, Vocabulary>([
  ['https://json-schema.org/draft/2020-12/vocab/core', 'core'],
  ['https://json-schema.org/draft/2020-12/vocab/applicator', 'applicator'],
  ['https://json-schema.org/draft/2020-12/vocab/unevaluated', 'unevaluated'],
  ['https://json-schema.org/draft/2020-12/vocab/validation', 'validation'],
  ['https://json-schema.org/draft/2020-12/vocab/meta-data', 'meta-data'],
  ['https://json-schema.org/draft/2020-12/vocab/format-annotation', 'format'],
  // Format is an annotation in MCP whichever vocabulary asks for it.
  ['https://json-schema.org/draft/2020-12/vocab/format-assertion', 'format'],
  ['https://json-schema.org/draft/2020-12/vocab/content', 'content'],
  ['https://json-schema.org/draft/2019-09/vocab/core', 'core'],
  // 2019-09 had one vocabulary for the applicators, the unevaluated keywords included.
  ['https://json-schema.org/draft/2019-09/vocab/applicator', 'applicator'],
  ['https://json-schema.org/draft/2019-09/vocab/validation', 'validation'],
  ['https://json-schema.org/draft/2019-09/vocab/meta-data', 'meta-data'],
  ['https://json-schema.org/draft/2019-09/vocab/format', 'format'],
  ['https://json-schema.org/draft/2019-09/vocab/content', 'content'],
]);

export function vocabularyOf(uri: string): Vocabulary | undefined {
  return VOCABULARY_URIS.get(uri);
}

/** The dialect a `$schema` value names, when it is one of the three (with or without the empty fragment). */
export function dialectOfUri(uri: string): Dialect | undefined {
  const u = uri.endsWith('#') ? uri.slice(0, -1) : uri;
  switch (u) {
    case 'https://json-schema.org/draft/2020-12/schema':
      return '2020-12';
    case 'https://json-schema.org/draft/2019-09/schema':
      return '2019-09';
    case 'http://json-schema.org/draft-07/schema':
    case 'https://json-schema.org/draft-07/schema':
      return 'draft-07';
    default:
      return undefined;
  }
}

/** `options.dialect` as a caller may spell it: the short name or the `$schema` URI. */
export function parseDialectOption(value: string): Dialect | undefined {
  switch (value) {
    case '2020-12':
    case 'draft2020-12':
      return '2020-12';
    case '2019-09':
    case 'draft2019-09':
      return '2019-09';
    case 'draft-07':
    case 'draft7':
    case '7':
      return 'draft-07';
    default:
      return dialectOfUri(value);
  }
}

/** Which vocabulary a keyword belongs to in 2019-09 and 2020-12 (unlisted keywords are core or unknown). */
export const KEYWORD_VOCABULARY: Readonly<Record<string, Vocabulary>> = {
  allOf: 'applicator',
  anyOf: 'applicator',
  oneOf: 'applicator',
  not: 'applicator',
  if: 'applicator',
  then: 'applicator',
  else: 'applicator',
  dependentSchemas: 'applicator',
  prefixItems: 'applicator',
  items: 'applicator',
  additionalItems: 'applicator',
  contains: 'applicator',
  properties: 'applicator',
  patternProperties: 'applicator',
  additionalProperties: 'applicator',
  propertyNames: 'applicator',
  unevaluatedItems: 'unevaluated',
  unevaluatedProperties: 'unevaluated',
  type: 'validation',
  enum: 'validation',
  const: 'validation',
  multipleOf: 'validation',
  maximum: 'validation',
  exclusiveMaximum: 'validation',
  minimum: 'validation',
  exclusiveMinimum: 'validation',
  maxLength: 'validation',
  minLength: 'validation',
  pattern: 'validation',
  maxItems: 'validation',
  minItems: 'validation',
  uniqueItems: 'validation',
  maxContains: 'validation',
  minContains: 'validation',
  maxProperties: 'validation',
  minProperties: 'validation',
  required: 'validation',
  dependentRequired: 'validation',
  format: 'format',
  contentEncoding: 'content',
  contentMediaType: 'content',
  contentSchema: 'content',
};
