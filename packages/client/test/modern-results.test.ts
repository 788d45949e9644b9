// Results and errors of a modern server: result types, required capabilities, not-found, `input_required`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  InputRequiredError,
  MissingRequiredClientCapabilityError,
  ResourceNotFoundError,
  ServerError,
  ValidationError,
  textOf,
} from '@mcpc/client';
import type { ElicitationRequest, InputRequiredWait } from '@mcpc/client/types';
import { modernFixture, recordingLogger } from './helpers.js';

describe('results and errors of a modern server', () => {
  let client: Client;
  const logger = recordingLogger();
  const asked: ElicitationRequest[] = [];
  let failSecond = false;
  let waits: InputRequiredWait[] = [];
  let decide: (w: InputRequiredWait) => 'cancel' | 'retry' | undefined = () => undefined;

  beforeAll(async () => {
    client = new Client({
      servers: [modernFixture('scripted-server.mjs', ['stdio'], { name: 's' })],
      logger,
      elicitationModes: ['form', 'url'],
      onElicitation: (request) => {
        asked.push(request);
        if (failSecond && request.message === 'Second?') throw new Error('the user closed the dialog');
        if (request.mode === 'url') return { action: 'accept' };
        return { name: request.message };
      },
      onInputRequiredWait: (wait) => {
        waits.push(wait);
        return decide(wait);
      },
    });
    await client.connect();
  });
  afterAll(() => client.close());
  // A test that fails half-way must not leave its host decision to the next.
  afterEach(() => {
    decide = () => undefined;
  });

  it('an unknown resultType is a ValidationError', async () => {
    const error = await client.callTool('bad-type').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain('"weird"');
  });

  it('-32021 is a MissingRequiredClientCapabilityError (still a ServerError) naming what is required', async () => {
    const error = await client.callTool('needs-cap').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingRequiredClientCapabilityError);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({
      rpcCode: -32021,
      code: 'MCPC_MISSING_CLIENT_CAPABILITY',
      requiredCapabilities: { elicitation: {} },
    });
  });

  it('resource not found is accepted as -32602 naming the URI and as -32002', async () => {
    for (const uri of ['missing://x', 'old-missing://y']) {
      const error = await client.readResource(uri, { server: 's' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResourceNotFoundError);
      expect((error as ResourceNotFoundError).cause).toBeInstanceOf(ServerError);
    }
  });

  it('an input_required answer with only a requestState is retried at a growing pace the host sees', async () => {
    waits = [];
    expect(textOf(await client.callTool('pace', { n: 2 }))).toBe('paced 2');
    expect(waits.map((w) => [w.round, w.delay, w.requestState])).toEqual([
      [1, 250, '1'],
      [2, 500, '2'],
    ]);
  });

  it("onInputRequiredWait 'retry' retries at once; 'cancel' stops with a resumable InputRequiredError that resumeInputRequired takes up", async () => {
    decide = () => 'retry';
    waits = [];
    const started = Date.now();
    expect(textOf(await client.callTool('pace', { n: 3 }))).toBe('paced 3');
    // Waiting out the paces asked for would take 250 + 500 + 1,000 ms; four round trips to a child on a loaded
    // machine can take a good part of 250 on their own, so the bound is the last wait alone.
    expect(waits.map((w) => w.delay)).toEqual([250, 500, 1_000]);
    expect(Date.now() - started).toBeLessThan(1_000);
    decide = (w) => (w.round === 1 ? 'cancel' : 'retry');
    const error = (await client.callTool('pace', { n: 2 }).catch((e: unknown) => e)) as InputRequiredError;
    expect(error).toBeInstanceOf(InputRequiredError);
    expect(error).toMatchObject({
      reason: 'cancelled',
      resumable: true,
      requestState: '1',
      method: 'tools/call',
      server: 's',
    });
    const resumed = await client.resumeInputRequired(error);
    expect(textOf(resumed as never)).toBe('paced 2');
  });

  it('the wait never outlives the request timeout', async () => {
    const error = (await client
      .callTool('pace', { n: 50 }, { timeout: 600 })
      .catch((e: unknown) => e)) as InputRequiredError;
    expect(error).toBeInstanceOf(InputRequiredError);
    expect(error.reason).toBe('timeout');
    expect(error.resumable).toBe(true);
  });

  it('stops after 10 round trips', async () => {
    const error = (await client.callTool('forever').catch((e: unknown) => e)) as InputRequiredError;
    expect(error).toBeInstanceOf(InputRequiredError);
    expect(error.reason).toBe('too-many-rounds');
    expect(error.requestState).toBe('s11');
  });

  it('an input request the client cannot honour, or a malformed inputRequests, is an InputRequiredError', async () => {
    const unsupported = (await client.callTool('unsupported').catch((e: unknown) => e)) as InputRequiredError;
    expect(unsupported).toMatchObject({ reason: 'unsupported', resumable: false });
    expect(unsupported.inputRequests).toEqual({ x: { method: 'foo/bar', params: {} } });
    const malformed = (await client.callTool('malformed').catch((e: unknown) => e)) as InputRequiredError;
    expect(malformed).toMatchObject({ reason: 'malformed', resumable: false });
  });

  it('answers already produced are kept when another input fails, and a resume asks only for the rest', async () => {
    failSecond = true;
    asked.length = 0;
    const error = (await client.callTool('two').catch((e: unknown) => e)) as InputRequiredError;
    expect(error).toMatchObject({ reason: 'handler-failed', resumable: true, requestState: 'two' });
    expect(Object.keys(error.continuation.inputResponses)).toEqual(['first']);
    failSecond = false;
    asked.length = 0;
    const resumed = await client.resumeInputRequired(error);
    expect(asked.map((a) => a.message)).toEqual(['Second?']);
    expect(JSON.parse(textOf(resumed as never))).toEqual({
      first: { action: 'accept', content: { name: 'First?' } },
      second: { action: 'accept', content: { name: 'Second?' } },
    });
  });

  it('a URL-mode elicitation reaches the host as { mode, url } only: an elicitationId is dropped with a warning', async () => {
    asked.length = 0;
    expect(JSON.parse(textOf(await client.callTool('url')))).toEqual({ open: { action: 'accept' } });
    expect(asked[0]).toEqual({ mode: 'url', message: 'Sign in', url: 'https://example.com/login' });
    expect(logger.text('warn')).toContain('elicitationId');
  });

  it('input_required results never go to requests other than the three that may return them', async () => {
    const stats = JSON.parse(textOf(await client.callTool('stats')));
    const retried = stats.requests.filter(
      (r: { params?: { inputResponses?: unknown; requestState?: unknown } }) =>
        r.params?.inputResponses !== undefined || r.params?.requestState !== undefined,
    );
    expect(retried.every((r: { method: string }) => r.method === 'tools/call')).toBe(true);
    const ids = stats.requests.map((r: { id: number }) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
