// The tools view's decisions (web/views/tools-logic.ts), without a DOM: search, hint badges, the app, result parts.
import { describe, expect, it } from 'vitest';
import type { ToolView } from '../../contract/api.js';
import {
  hintBadges,
  isCancellation,
  matches,
  resultParts,
  uiUri,
  verdictSummary,
} from '../../web/views/tools-logic.js';

const annotations = (readOnlyHint: boolean): ToolView['annotations'] => ({
  readOnlyHint,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
});

describe('matches', () => {
  const tool = { name: 'slow-count', title: 'Slow count', description: 'Counts with progress' };
  it.each([
    ['', true],
    ['SLOW', true],
    ['count progress', true],
    ['count missing', false],
  ])('%j → %s', (query, expected) => {
    expect(matches(tool, query)).toBe(expected);
  });
});

describe('hintBadges', () => {
  it('marks undeclared hints as the defaults the client assumed', () => {
    const badges = hintBadges({ annotations: annotations(false), declaredAnnotations: { destructiveHint: false } });
    expect(badges.map((b) => [b.hint, b.declared])).toEqual([
      ['readOnlyHint', false],
      ['destructiveHint', true],
      ['idempotentHint', false],
      ['openWorldHint', false],
    ]);
  });

  it('leaves out the destructive and idempotent defaults of a read-only tool (the spec gives them no meaning)', () => {
    const badges = hintBadges({ annotations: annotations(true), declaredAnnotations: { readOnlyHint: true } });
    expect(badges.map((b) => b.hint)).toEqual(['readOnlyHint', 'openWorldHint']);
    const declared = hintBadges({
      annotations: annotations(true),
      declaredAnnotations: { readOnlyHint: true, idempotentHint: true },
    });
    expect(declared.map((b) => b.hint)).toContain('idempotentHint');
  });
});

describe('uiUri', () => {
  it('reads _meta.ui.resourceUri (or the older flat key), ui:// only', () => {
    expect(uiUri({ _meta: { ui: { resourceUri: 'ui://demo/chart' } } })).toBe('ui://demo/chart');
    expect(uiUri({ _meta: { 'ui/resourceUri': 'ui://old' } })).toBe('ui://old');
    expect(uiUri({ _meta: { ui: { resourceUri: 'https://evil' } } })).toBeUndefined();
    expect(uiUri({})).toBeUndefined();
  });
});

describe('resultParts', () => {
  const schema = { outputSchema: { type: 'object' } };
  it('checks structured content only in the main result of a tool that declares an output schema', () => {
    expect(resultParts({ structuredContent: { a: 1 } }, schema, true)).toEqual({
      structured: true,
      outputCheck: true,
      structuredMissing: false,
    });
    expect(resultParts({ structuredContent: { a: 1 } }, schema, false).outputCheck).toBe(false);
    expect(resultParts({ structuredContent: { a: 1 } }, {}, true).outputCheck).toBe(false);
  });

  it('says when a declared output is missing, unless the tool reported an error', () => {
    expect(resultParts({}, schema, true).structuredMissing).toBe(true);
    expect(resultParts({ isError: true }, schema, true).structuredMissing).toBe(false);
    expect(resultParts({}, undefined, true).structuredMissing).toBe(false);
  });
});

describe('verdictSummary and cancellation', () => {
  it('words the client verdict', () => {
    expect(verdictSummary(undefined)).toEqual({ text: 'not reported', tone: 'muted' });
    expect(verdictSummary({ valid: null, reason: 'undecided', issues: [] }).tone).toBe('muted');
    expect(verdictSummary({ valid: true, issues: [] })).toEqual({ text: 'valid', tone: 'ok' });
    const issue = { instancePath: '/a', message: 'm', keyword: 'type', schemaPath: '' };
    expect(verdictSummary({ valid: false, issues: [issue, issue] })).toEqual({ text: '2 issue(s)', tone: 'error' });
  });

  it('tells a cancellation from a failure', () => {
    expect(isCancellation('ABORT_ERR')).toBe(true);
    expect(isCancellation('MCPC_TASK_CANCELLED')).toBe(true);
    expect(isCancellation('MCPC_SERVER_EXITED')).toBe(false);
  });
});
