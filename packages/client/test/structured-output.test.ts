// Tool results checked against their `outputSchema`: the modes, the definition used, and the pattern worker.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, type Validator } from '@mcpc/schema-validator';
import {
  Client,
  InputRequiredError,
  McpError,
  StructuredContentError,
  ToolSchemaError,
  ValidationError,
  streamableHttp,
  textOf,
} from '@mcpc/client';
import type { StructuredContentValidation } from '@mcpc/client/types';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { ToolSchemas } from '../src/features/structured-output.js';
import type { Tool } from '../src/types/entities.js';
import {
  RecordingTransport,
  fixture,
  modernFixture,
  modernFixturePath,
  recordingLogger,
  revision,
  tapped,
  until,
} from './helpers.js';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** How often the fixture was asked: tools/call by tool name, and tools/list. */
async function asked(client: Client, server: string): Promise<{ calls: Record<string, number>; lists: number }> {
  return JSON.parse(textOf(await client.callTool('calls', {}, { server, validateStructuredContent: 'off' })));
}

const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

// The same tools on both eras (tooling/fixtures/servers/_structured-tools.mjs): on 2025-11-25 through
// the official SDK's server, on 2026-07-28 through a hand-written one.
describe.each([
  {
    era: '2025-11-25 (official SDK server)',
    config: (name: string) => fixture('structured-output.mjs', [], name),
    modern: false,
  },
  {
    era: '2026-07-28',
    config: (name: string) => modernFixture('structured-output.mjs', ['stdio'], { name }),
    modern: true,
  },
])('structured output on $era', ({ config, modern }) => {
  let warn: Client;
  let strict: Client;
  const warnLog = recordingLogger();
  const strictLog = recordingLogger();
  beforeAll(async () => {
    warn = new Client({ servers: [config('w')], logger: warnLog });
    strict = new Client({ servers: [config('s')], logger: strictLog, validateStructuredContent: 'strict' });
    await Promise.all([warn.connect(), strict.connect()]);
    expect(warn.server('w').protocolEra).toBe(modern ? 'modern' : 'legacy');
  });
  afterAll(async () => {
    await Promise.all([warn?.close(), strict?.close()]);
  });

  it('a check that cannot finish is undecided, never a mismatch: a warning that says so, and its own reason in strict mode', async () => {
    const before = warnLog.lines.length;
    const result = await warn.callTool('hopeless_pattern');
    expect(result.structuredContent).toEqual({ s: `${'a'.repeat(30)}b` });
    const said = warnLog.lines
      .slice(before)
      .map((l) => l.message)
      .join('\n');
    expect(said).toMatch(/could not be checked against its outputSchema \(not a mismatch\)/);
    expect(said).not.toMatch(/does not match/);
    const error = await strict.callTool('hopeless_pattern').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StructuredContentError);
    expect(error).toMatchObject({ reason: 'undecided', code: 'MCPC_STRUCTURED_CONTENT_INVALID' });
  }, 20_000);

  it('returns a result that matches its outputSchema, logging nothing', async () => {
    const before = warnLog.lines.length;
    const result = await warn.callTool('weather');
    expect(result.structuredContent).toEqual({ temperature: 22.5, conditions: 'sunny' });
    expect(await strict.callTool('weather')).toMatchObject({ structuredContent: { temperature: 22.5 } });
    expect(warnLog.lines.slice(before).filter((l) => l.level === 'warn')).toEqual([]);
  });

  it("warns about a mismatch and still returns the result (the default, 'warn')", async () => {
    const result = await warn.callTool('weather_wrong');
    expect(result.structuredContent).toEqual({ temperature: 'hot', conditions: 'sunny' });
    const line = warnLog.lines.findLast((l) => l.level === 'warn')?.message ?? '';
    expect(line).toContain(
      'tool "weather_wrong" on server "w" returned structuredContent that does not match its outputSchema: /temperature must be number',
    );
  });

  it("throws a StructuredContentError in 'strict' mode: a ValidationError carrying where, which keyword, and the result", async () => {
    const error = await rejection(strict.callTool('weather_wrong'));
    expect(error).toBeInstanceOf(StructuredContentError);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(McpError);
    const e = error as StructuredContentError;
    expect(e.code).toBe('MCPC_STRUCTURED_CONTENT_INVALID');
    expect(e.reason).toBe('mismatch');
    expect(e.tool).toBe('weather_wrong');
    expect(e.server).toBe('s');
    expect(e.errors).toEqual([
      {
        instancePath: '/temperature',
        keyword: 'type',
        schemaPath: '#/properties/temperature/type',
        message: 'must be number',
      },
    ]);
    expect(e.result.structuredContent).toEqual({ temperature: 'hot', conditions: 'sunny' });
  });

  it('lets a call choose its own mode over the client option', async () => {
    await expect(warn.callTool('weather_wrong', {}, { validateStructuredContent: 'strict' })).rejects.toBeInstanceOf(
      StructuredContentError,
    );
    expect(
      (await strict.callTool('weather_wrong', {}, { validateStructuredContent: 'warn' })).structuredContent,
    ).toMatchObject({ temperature: 'hot' });
    expect(
      (await strict.callTool('weather_wrong', {}, { validateStructuredContent: 'off' })).structuredContent,
    ).toMatchObject({ temperature: 'hot' });
  });

  it('treats a successful result without structuredContent, from a tool that declares an outputSchema, as a violation', async () => {
    const error = (await rejection(strict.callTool('weather_missing'))) as StructuredContentError;
    expect(error).toBeInstanceOf(StructuredContentError);
    expect(error.reason).toBe('missing');
    expect(error.message).toContain('declares an outputSchema, but its result carries no structuredContent');
    expect(textOf(await warn.callTool('weather_missing'))).toBe('22.5 and sunny');
    expect(warnLog.text('warn')).toContain(
      'tool "weather_missing" on server "w" declares an outputSchema, but its result carries no structuredContent',
    );
  });

  it('does not validate an isError result', async () => {
    const before = strictLog.lines.length;
    const result = await strict.callTool('weather_failed');
    expect(result.isError).toBe(true);
    expect(strictLog.lines.slice(before).filter((l) => l.level === 'warn')).toEqual([]);
  });

  if (modern) {
    it('takes any JSON value as structured content: an array, and null', async () => {
      expect((await strict.callTool('cities')).structuredContent).toEqual(['Oslo', 'Lima']);
      const nothing = await strict.callTool('nothing');
      expect(nothing.structuredContent).toBeNull();
      expect('structuredContent' in nothing).toBe(true);
    });
  } else {
    it('takes only an object as structured content: an array or null is none, and reported as missing', async () => {
      for (const tool of ['cities', 'nothing']) {
        const error = (await rejection(strict.callTool(tool))) as StructuredContentError;
        expect(error).toBeInstanceOf(StructuredContentError);
        expect(error.reason).toBe('missing');
        expect(error.message).toMatch(
          /it sent (an array|null), and before MCP 2026-07-28 structuredContent is an object/,
        );
        expect(error.result.structuredContent).toBeUndefined();
      }
    });
  }

  it('refuses a tool whose inputSchema declares an unsupported dialect, before anything is sent', async () => {
    const before = await asked(strict, 's');
    for (const client of [strict, warn]) {
      const error = (await rejection(client.callTool('bad_dialect', {}))) as ToolSchemaError;
      expect(error).toBeInstanceOf(ToolSchemaError);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.code).toBe('MCPC_TOOL_SCHEMA_UNSUPPORTED_DIALECT');
      expect(error.schema).toBe('inputSchema');
      expect(error.dialect).toBe('urn:unknown-dialect');
      expect(error.supported).toContain(DRAFT_2020_12);
      expect(error.message).toContain(
        'its input schema declares the JSON Schema dialect "urn:unknown-dialect", which this client does not support (supported: ',
      );
      expect(error.message).toContain(DRAFT_2020_12);
    }
    const after = await asked(strict, 's');
    expect(after.calls.bad_dialect).toBeUndefined();
    expect(after.calls.calls).toBe(before.calls.calls! + 1);
  });

  it('refuses a tool whose outputSchema declares an unsupported dialect in both modes, before anything is sent', async () => {
    for (const client of [strict, warn]) {
      const error = (await rejection(client.callTool('out_dialect'))) as ToolSchemaError;
      expect(error).toBeInstanceOf(ToolSchemaError);
      expect(error.schema).toBe('outputSchema');
      expect(error.dialect).toBe('urn:unknown-dialect');
    }
    expect((await asked(warn, 'w')).calls.out_dialect).toBeUndefined();
    expect((await asked(strict, 's')).calls.out_dialect).toBeUndefined();
  });

  it('warns once about an unusable inputSchema, and sends the call: the server validates its arguments', async () => {
    expect(textOf(await strict.callTool('unusable_input', { thing: 1 }))).toBe('called');
    expect(textOf(await strict.callTool('unusable_input', { thing: 2 }))).toBe('called');
    const warnings = strictLog.lines.filter((l) => l.level === 'warn' && l.message.includes('"unusable_input"'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('its inputSchema cannot be used');
    expect(warnings[0]!.message).toContain('https://example.com/schemas/thing.json');
    expect(warnings[0]!.message).toContain('the call is sent anyway');
  });

  it("warns once about an unusable outputSchema and returns results unvalidated; 'strict' refuses the call before it is sent", async () => {
    expect((await warn.callTool('unusable_output')).structuredContent).toEqual({ thing: 1 });
    await warn.callTool('unusable_output');
    expect(warnLog.lines.filter((l) => l.level === 'warn' && l.message.includes('"unusable_output"'))).toHaveLength(1);
    const error = (await rejection(strict.callTool('unusable_output'))) as ToolSchemaError;
    expect(error).toBeInstanceOf(ToolSchemaError);
    expect(error.reason).toBe('unusable');
    expect(error.code).toBe('MCPC_TOOL_SCHEMA_UNUSABLE');
    expect((error.cause as { code?: string }).code).toBe('MCPC_SCHEMA_UNRESOLVED_REF');
    expect((await asked(strict, 's')).calls.unusable_output).toBeUndefined();
  });

  it('notes once per definition, at debug level, that format is an annotation and was not checked', async () => {
    expect((await strict.callTool('dated')).structuredContent).toEqual({ when: 'not a date' });
    await strict.callTool('dated');
    const notes = strictLog.lines.filter(
      (l) => l.message.includes('validation is partial') && l.message.includes('"dated"'),
    );
    expect(notes).toEqual([expect.objectContaining({ level: 'debug' })]);
    expect(notes[0]!.message).toContain('format');
  });

  it('checks callTools and callToolStreaming results the same way', async () => {
    const outcomes = await strict.callTools([
      { name: 'weather' },
      { name: 'weather_wrong' },
      { name: 'weather_wrong', validateStructuredContent: 'warn' },
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes[1]!.ok === false && outcomes[1]!.error).toBeInstanceOf(StructuredContentError);
    const relaxed = await strict.callTools([{ name: 'weather_wrong' }], { validateStructuredContent: 'warn' });
    expect(relaxed[0]!.ok).toBe(true);

    const events: string[] = [];
    const stream = async (): Promise<void> => {
      for await (const event of strict.callToolStreaming('weather_wrong')) events.push(event.type);
    };
    await expect(stream()).rejects.toBeInstanceOf(StructuredContentError);
    for await (const event of strict.callToolStreaming('weather')) events.push(event.type);
    expect(events).toEqual(['result']);
  });

  it('rejects a mode that is not one of the three', async () => {
    expect(() => new Client({ validateStructuredContent: 'loud' as StructuredContentValidation })).toThrow(TypeError);
    await expect(
      strict.callTool('weather', {}, { validateStructuredContent: 'loud' as StructuredContentValidation }),
    ).rejects.toBeInstanceOf(TypeError);
  });
});

describe('the definition a result is checked against', () => {
  it('is the refreshed one after tools/list_changed (2025-11-25): validators of the old list are not reused', async () => {
    await using client = new Client({
      servers: [fixture('structured-output.mjs', [], 'lc')],
      logger: recordingLogger(),
      validateStructuredContent: 'strict',
    });
    await client.listTools();
    await expect(client.callTool('versioned')).rejects.toBeInstanceOf(StructuredContentError);
    await client.callTool('change_schema');
    // The notification is sent before the result, and the cache is dropped on arrival.
    expect(client.server('lc').cacheInfo('tools').cached).toBe(false);
    expect((await client.callTool('versioned')).structuredContent).toEqual({ value: 'text' });
    const versioned = (await client.listTools()).find((t) => t.name === 'versioned');
    expect(versioned?.outputSchema?.properties).toEqual({ value: { type: 'string' } });
  });

  it('is the one the call went out under, whatever list_changed arrives while it is in flight', async () => {
    await using client = new Client({
      servers: [fixture('structured-output.mjs', [], 'lc')],
      logger: recordingLogger(),
      validateStructuredContent: 'strict',
    });
    // Made under version 1 ({value: integer}); version 2 ({value: string}) is announced before the answer.
    expect((await client.callTool('versioned_change')).structuredContent).toEqual({ value: 1 });
    expect(client.server('lc').cacheInfo('tools').cached).toBe(false);
    // The next call goes out under version 2, and is answered in its shape.
    expect((await client.callTool('versioned_change')).structuredContent).toEqual({ value: 'text' });
  });

  it('is the refreshed one after a list_changed on a subscription, and after clearCache (2026-07-28)', async () => {
    await using client = new Client({
      servers: [modernFixture('structured-output.mjs', ['stdio'], { name: 'm' })],
      logger: recordingLogger(),
      validateStructuredContent: 'strict',
    });
    await expect(client.callTool('versioned')).rejects.toBeInstanceOf(StructuredContentError);
    const sub = client.listen({ toolsListChanged: true }, () => {});
    await sub.ready;
    await client.callTool('change_schema');
    await until(() => client.server('m').cacheInfo('tools').cached === false);
    expect((await client.callTool('versioned')).structuredContent).toEqual({ value: 'text' });
    await sub.close();

    // A cache cleared by hand is re-listed for the next call, which is checked against the new list.
    const before = (await asked(client, 'm')).lists;
    client.clearCache('tools');
    await client.callTool('versioned');
    expect((await asked(client, 'm')).lists).toBe(before + 1);
  });

  it('is the first attempt’s for a call resumed after an InputRequiredError', async () => {
    let refuse = true;
    await using client = new Client({
      servers: [modernFixture('structured-output.mjs', ['stdio'], { name: 'm' })],
      logger: recordingLogger(),
      validateStructuredContent: 'strict',
      onElicitation: async () => {
        if (refuse) throw new Error('not now');
        return { action: 'accept', content: {} };
      },
    });
    const stopped = await rejection(client.callTool('confirm_weather'));
    expect(stopped).toBeInstanceOf(InputRequiredError);
    expect((stopped as InputRequiredError).resumable).toBe(true);
    refuse = false;
    const error = (await rejection(
      client.resumeInputRequired(stopped as InputRequiredError),
    )) as StructuredContentError;
    expect(error).toBeInstanceOf(StructuredContentError);
    expect(error.errors[0]).toMatchObject({ instancePath: '/temperature', keyword: 'type' });
  });

  it('is fetched once (tools/list) when the client has none, and never with validation off', async () => {
    const transport = new RecordingTransport(tapped('servers/structured-output.mjs').stdio);
    await using client = new Client({ servers: [{ name: 't', transport }], logger: recordingLogger() });
    await client.callTool('weather_wrong', {}, { validateStructuredContent: 'off' });
    expect(transport.requests('tools/list')).toHaveLength(0);
    await client.callTool('weather');
    await client.callTool('weather');
    await client.callTool('weather_wrong');
    expect(transport.requests('tools/list')).toHaveLength(1);
    expect(transport.requests('tools/call')).toHaveLength(4);
  });

  it('does not ask again on every call for a tools/list that failed, only once the tools cache was dropped', async () => {
    const logger = recordingLogger();
    await using client = new Client({
      servers: [fixture('paginating.mjs', ['--loop', '--kind', 'tools'], 'loop')],
      logger,
    });
    const lists = async (): Promise<string> => textOf(await client.callTool('count', { method: 'tools/list' }));
    expect(await lists()).toBe('2'); // one listing: two pages, then the looping cursor
    expect(logger.text('warn')).toContain('tools/list failed');
    expect(await lists()).toBe('2');
    client.clearCache('tools');
    expect(await lists()).toBe('4');
  });

  it("with 'off', reads no schema at all: an unsupported dialect is sent to the server", async () => {
    await using client = new Client({
      servers: [fixture('structured-output.mjs', [], 'off')],
      logger: recordingLogger(),
      validateStructuredContent: 'off',
    });
    expect(textOf(await client.callTool('bad_dialect'))).toBe('called');
    expect((await client.callTool('weather_wrong')).structuredContent).toMatchObject({ temperature: 'hot' });
  });

  it('refuses a tool the server does not list before sending it (ToolNotFoundError)', async () => {
    const logger = recordingLogger();
    await using client = new Client({
      servers: [revision('2025-11-25', 'rev')],
      logger,
      validateStructuredContent: 'strict',
    });
    await expect(client.callTool('no_such_tool')).rejects.toMatchObject({
      code: 'MCPC_TOOL_NOT_FOUND',
      servers: ['rev'],
    });
  });

  it.each(['2025-06-18', '2025-11-25'] as const)(
    'passes the official SDK server’s get_weather on %s in strict mode',
    async (version) => {
      await using client = new Client({
        servers: [revision(version, 'rev')],
        logger: recordingLogger(),
        validateStructuredContent: 'strict',
      });
      expect((await client.callTool('get_weather', { city: 'Oslo' })).structuredContent).toEqual({
        temperature: 22.5,
        conditions: 'sunny',
      });
    },
  );
});

describe('a HeaderMismatch retry (2026-07-28 over HTTP)', () => {
  let server: Fixture;
  beforeAll(async () => {
    server = await startFixture(modernFixturePath('structured-output.mjs'), ['http']);
  });
  afterAll(() => server?.stop());

  it('validates the result against the refreshed definition the retry went out under', async () => {
    await using client = new Client({
      servers: [streamableHttp({ name: 'h', url: server.url, retries: 0 })],
      logger: recordingLogger(),
      validateStructuredContent: 'strict',
    });
    // The first definition wants {n: integer}; the refreshed one {n: string}, which the answer matches.
    const first = (await client.listTools()).find((t) => t.name === 'mismatch_schema');
    expect(first?.outputSchema?.properties).toEqual({ n: { type: 'integer' } });
    expect((await client.callTool('mismatch_schema', { region: 'eu' })).structuredContent).toEqual({ n: 'two' });
    expect((await asked(client, 'h')).calls.mismatch_schema).toBe(2);
  });

  it('does not send the retry when the refreshed inputSchema declares an unsupported dialect', async () => {
    await using client = new Client({
      servers: [streamableHttp({ name: 'h', url: server.url, retries: 0 })],
      logger: recordingLogger(),
    });
    const error = (await rejection(client.callTool('mismatch_dialect', { region: 'eu' }))) as ToolSchemaError;
    expect(error).toBeInstanceOf(ToolSchemaError);
    expect(error.dialect).toBe('urn:unknown-dialect');
    expect((await asked(client, 'h')).calls.mismatch_dialect).toBe(1);
  });
});

describe('the schema validator’s slow pattern path', () => {
  it('does not keep a process alive: a script that used the client exits by itself after close()', async () => {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--import', './test/fixtures/register-ts.mjs', './test/fixtures/exit-after-close.mjs'],
      { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    // A bound, not a timing: a process still running after it is a process that would never end.
    const bound = setTimeout(() => child.kill('SIGKILL'), 25_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (c, s) => resolve([c, s])),
    );
    clearTimeout(bound);
    expect({ code, signal, err: err.slice(-2000) }).toEqual({ code: 0, signal: null, err: '' });
    // The check ran on the calling thread (no worker job, where there was one), and its answer was right.
    expect(JSON.parse(out)).toEqual({ structuredContent: { s: 'a'.repeat(2000) }, workerJobs: 0 });
  });
});

describe('checking a result against its outputSchema', () => {
  it('validates once, valid or not: a mismatch does not pay for its pattern checks twice', () => {
    const outputSchema = { type: 'object', properties: { s: { type: 'string', pattern: '^[a-z]+$' } } };
    const real = compile(outputSchema);
    const calls: string[] = [];
    const validator: Validator = {
      partial: real.partial,
      dialect: real.dialect,
      validate: (v) => (calls.push('validate'), real.validate(v)),
      isValid: (v) => (calls.push('isValid'), real.isValid(v)),
      validateOrThrow: (v, what) => (calls.push('validateOrThrow'), real.validateOrThrow(v, what)),
    };
    const tool = { name: 'lower', inputSchema: { type: 'object' }, outputSchema } as unknown as Tool;
    const schemas = new ToolSchemas('srv', recordingLogger());
    expect(() =>
      schemas.check({ tool, validator, mode: 'strict' }, { content: [], structuredContent: { s: 'ABC' } }, undefined),
    ).toThrow(StructuredContentError);
    expect(calls).toEqual(['validate']);
    calls.length = 0;
    schemas.check({ tool, validator, mode: 'strict' }, { content: [], structuredContent: { s: 'abc' } }, undefined);
    expect(calls).toEqual(['validate']);
  });
});
