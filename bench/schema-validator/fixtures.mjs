// The schemas and instances the bench measures: a typical MCP tool input schema and a tool output schema.
//
// The input schema has ~30 properties, a few patterns, enums, bounds, a nested object and arrays; the output schema
// comes with a small (~2 KB) and a large (~20 KB) structured result. No `format`: raw cfworker always asserts it and
// the other two treat it as an annotation, so leaving it out keeps the comparison like for like.

export const inputSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['query', 'repository', 'limit'],
  properties: {
    query: { type: 'string', minLength: 1, maxLength: 500, description: 'What to search for' },
    repository: { type: 'string', pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$' },
    branch: { type: 'string', pattern: '^[A-Za-z0-9._/-]{1,100}$', default: 'main' },
    path: { type: 'string', maxLength: 1000 },
    language: {
      type: 'string',
      enum: ['typescript', 'javascript', 'python', 'go', 'rust', 'java', 'ruby', 'c', 'cpp', 'csharp'],
    },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    offset: { type: 'integer', minimum: 0 },
    sort: { type: 'string', enum: ['relevance', 'updated', 'created', 'stars'] },
    order: { type: 'string', enum: ['asc', 'desc'] },
    caseSensitive: { type: 'boolean' },
    regex: { type: 'boolean' },
    wholeWord: { type: 'boolean' },
    includeForks: { type: 'boolean' },
    includeArchived: { type: 'boolean' },
    minStars: { type: 'integer', minimum: 0 },
    maxStars: { type: 'integer', minimum: 0 },
    createdAfter: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    createdBefore: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    author: { type: 'string', maxLength: 100 },
    labels: { type: 'array', items: { type: 'string', maxLength: 50 }, maxItems: 20, uniqueItems: true },
    extensions: { type: 'array', items: { type: 'string', pattern: '^\\.?[a-z0-9]+$' }, maxItems: 20 },
    excludePaths: { type: 'array', items: { type: 'string' }, maxItems: 50 },
    contextLines: { type: 'integer', minimum: 0, maximum: 20 },
    timeoutMs: { type: 'number', exclusiveMinimum: 0, maximum: 60000 },
    score: { type: 'number', minimum: 0, maximum: 1, multipleOf: 0.01 },
    mode: { oneOf: [{ const: 'fast' }, { const: 'thorough' }] },
    owner: { type: ['string', 'null'] },
    visibility: { type: 'string', enum: ['public', 'private', 'internal'] },
    cursor: { type: 'string', maxLength: 200 },
    filters: {
      type: 'object',
      additionalProperties: false,
      properties: {
        minSize: { type: 'integer', minimum: 0 },
        maxSize: { type: 'integer', minimum: 0 },
        topics: { type: 'array', items: { type: 'string' } },
      },
    },
  },
};

export const outputSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['total', 'items'],
  additionalProperties: false,
  properties: {
    total: { type: 'integer', minimum: 0 },
    nextCursor: { type: ['string', 'null'] },
    items: { type: 'array', items: { $ref: '#/$defs/hit' } },
  },
  $defs: {
    hit: {
      type: 'object',
      required: ['id', 'repository', 'path', 'score'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', pattern: '^[0-9a-f]{8}$' },
        repository: { type: 'string', maxLength: 200 },
        path: { type: 'string', maxLength: 1000 },
        line: { type: 'integer', minimum: 1 },
        score: { type: 'number', minimum: 0, maximum: 1 },
        language: { type: 'string', enum: ['typescript', 'javascript', 'python', 'go', 'rust'] },
        snippet: { type: 'string', maxLength: 2000 },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        author: { $ref: '#/$defs/person' },
      },
    },
    person: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1 }, email: { type: 'string', maxLength: 254 } },
    },
  },
};

export const inputInstance = {
  query: 'parse json schema',
  repository: 'mcpc/main',
  branch: 'feature/validator',
  language: 'typescript',
  limit: 20,
  offset: 0,
  sort: 'relevance',
  caseSensitive: false,
  labels: ['bug', 'enhancement'],
  extensions: ['.ts', 'mjs'],
  contextLines: 3,
  timeoutMs: 5000,
  score: 0.5,
  mode: 'fast',
  owner: null,
  createdAfter: '2024-01-01',
  filters: { minSize: 0, topics: ['json', 'schema'] },
};

function hit(i) {
  return {
    id: (0x10000000 + i * 7919).toString(16).slice(0, 8),
    repository: `org${i % 7}/repo-${i}`,
    path: `src/module-${i}/file-${i}.ts`,
    line: 1 + ((i * 37) % 500),
    score: ((i * 13) % 100) / 100,
    language: ['typescript', 'javascript', 'python', 'go', 'rust'][i % 5],
    snippet: `export function handler${i}(input: Input): Output { return validate(input, schema${i}); }`,
    tags: ['api', `t${i % 3}`],
    author: { name: `Author ${i}`, email: `author${i}@example.com` },
  };
}

export const outputFor = (n) => ({ total: n, nextCursor: null, items: Array.from({ length: n }, (_, i) => hit(i)) });
