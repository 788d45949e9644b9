// The runtime API and accepted inputs of `@mcpc/client/convert`.
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as convert from '../../src/convert/index.js';
import type { ConvertibleTool } from '../../src/convert/index.js';
import type { Tool as ClientTool } from '../../src/types/entities.js';

describe('the convert module', () => {
  it('exports exactly the documented runtime API', () => {
    expect(Object.keys(convert).sort()).toEqual(
      [
        'ToolConversionError',
        'convertToolName',
        'mapToolNames',
        'toAiSdkTools',
        'toAnthropicTools',
        'toGoogleFunctionDeclarations',
        'toGoogleTools',
        'toOpenAIResponsesTools',
        'toOpenAITools',
      ].sort(),
    );
  });

  it('accepts the client’s own Tool objects and a raw tools/list entry', () => {
    expectTypeOf<ClientTool>().toExtend<ConvertibleTool>();
    const wire = {
      name: 'x',
      inputSchema: { type: 'object' as const, properties: {} },
      annotations: { title: 'X', readOnlyHint: true },
    };
    expectTypeOf(wire).toExtend<ConvertibleTool>();
    expect(convert.toOpenAITools([wire])[0]?.function.description).toBe('X');
  });
});
