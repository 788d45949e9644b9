// What the smoke runs give on every runtime, where it does not depend on the runtime (see smoke-core.mjs).

/** What the feature scenario gives against the demo server, on every runtime (see smoke-core.mjs). */
export const MODERN = {
  connect: { era: 'modern', protocolVersion: '2026-07-28' },
  structured: { sum: 3 },
  abort: { name: 'AbortError', code: 'ABORT_ERR', bounded: true },
  elicitation: 'Hello, Ada, 36 years old, likes blue, subscribed!',
  task: 'long task finished 2 steps',
  subscription: true,
  close: 'closed',
  elicited: ['Who are you?', 'Halfway through 2 steps. Carry on?'],
};
export const LEGACY = {
  connect: { era: 'legacy', protocolVersion: '2025-11-25' },
  structured: { sum: 3 },
  abort: { name: 'AbortError', code: 'ABORT_ERR', bounded: true },
  elicitation: 'Hello, Ada, 36 years old, likes blue, subscribed!',
  subscription: true,
  close: 'closed',
  elicited: ['Who are you?'],
};

/** The schema verdicts of smoke-core.mjs's schemaVerdicts(), the same in every runtime. */
export const SCHEMA = [
  [true, false, false],
  [true, false, true],
  [true, true],
  [true, false, true],
  [true, false],
];
