// Tracing end to end: the built `mcpc` exporting to an OTLP/HTTP receiver this test runs, and `--trace`'s tree.
//
// The receiver is a node:http server on 127.0.0.1; the MCP servers are server-everything and the SDK v2 server.
import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING, MODERN_SERVER, NODE, mcpc, startMcpc } from './helpers.js';

const STDIO = ['--stdio', `${NODE} ${EVERYTHING} stdio`];
const MODERN_STDIO = ['--stdio', `${NODE} ${MODERN_SERVER} stdio`];
/** Words no span may carry: a call's arguments are payload. */
const PAYLOAD = 'payload-5d1c9e';

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

interface Receiver {
  readonly endpoint: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/** An OTLP/HTTP receiver: `answer` answers `{}`; `hang` reads the request and never answers. */
async function receiver(mode: 'answer' | 'hang' = 'answer'): Promise<Receiver> {
  const received: Received[] = [];
  const server: HttpServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (mode === 'answer') res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (a listener's, closed). */
async function closedPort(): Promise<number> {
  const { endpoint, close } = await receiver();
  await close();
  return Number(new URL(endpoint).port);
}

interface OtlpValue {
  readonly stringValue?: string;
  readonly intValue?: string;
  readonly boolValue?: boolean;
}
interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly attributes: readonly { key: string; value: OtlpValue }[];
  readonly status: { code: number; message?: string };
}
interface Exported {
  readonly resource: Record<string, string | undefined>;
  readonly spans: OtlpSpan[];
}

/** The resource and every span of the requests received. */
function exported(received: readonly Received[]): Exported {
  const resource: Record<string, string | undefined> = {};
  const spans: OtlpSpan[] = [];
  for (const { body } of received) {
    const request = JSON.parse(body) as {
      resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
    };
    for (const rs of request.resourceSpans) {
      for (const { key, value } of rs.resource.attributes) resource[key] = value.stringValue;
      for (const scope of rs.scopeSpans) spans.push(...scope.spans);
    }
  }
  return { resource, spans };
}

const attributes = (span: OtlpSpan | undefined): Record<string, string | boolean | undefined> =>
  Object.fromEntries(
    (span?.attributes ?? []).map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue]),
  );

const SPAN_KIND = { INTERNAL: 1, CLIENT: 3 } as const;
const STATUS_ERROR = 2;

let open: Receiver[] = [];
const start = async (mode?: 'answer' | 'hang'): Promise<Receiver> => {
  const r = await receiver(mode);
  open.push(r);
  return r;
};
afterEach(async () => {
  await Promise.all(open.map((r) => r.close()));
  open = [];
});

describe('OTLP export (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('sends the tools/call CLIENT span, its parents and the service name, with no payload', async () => {
    const otlp = await start();
    const res = await mcpc([...STDIO, 'call', 'echo', `message=${PAYLOAD}`], {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `${otlp.endpoint}/`,
        OTEL_SERVICE_NAME: 'mcpc-otel-test',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test,service.name=overridden',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-otel-test=yes%20indeed',
      },
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`Echo: ${PAYLOAD}\n`);
    expect(res.stderr).toBe('');
    expect(otlp.received.length).toBeGreaterThan(0);
    for (const request of otlp.received) {
      expect(request.path).toBe('/v1/traces');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-otel-test']).toBe('yes indeed');
      expect(request.body).not.toContain(PAYLOAD);
    }
    const { resource, spans } = exported(otlp.received);
    expect(resource['service.name']).toBe('mcpc-otel-test');
    expect(resource['deployment.environment.name']).toBe('test');

    const call = spans.find((s) => s.name === 'tools/call echo');
    expect(call?.kind).toBe(SPAN_KIND.CLIENT);
    expect(attributes(call)).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'pipe',
      'mcp.protocol.version': expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) as unknown,
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/) as unknown,
    });
    // One trace: the run's root span, connect and the handshake under it, the call beside them.
    const root = spans.find((s) => s.name === 'mcpc call');
    const connect = spans.find((s) => s.name === 'connect');
    const initialize = spans.find((s) => s.name === 'initialize');
    expect(root?.kind).toBe(SPAN_KIND.INTERNAL);
    expect(root?.parentSpanId).toBeUndefined();
    expect(attributes(root)['process.exit.code']).toBe('0');
    expect(connect?.parentSpanId).toBe(root?.spanId);
    expect(initialize?.parentSpanId).toBe(connect?.spanId);
    expect(call?.parentSpanId).toBe(root?.spanId);
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([root?.traceId]));
    expect(BigInt(call!.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(call!.startTimeUnixNano));
  });

  it('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as given; TRACEPARENT makes the run a child of its caller', async () => {
    const otlp = await start();
    const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const res = await mcpc([...MODERN_STDIO, 'call', 'add', 'a=2', 'b=3'], {
      env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlp.endpoint}/custom/path`, TRACEPARENT: parent },
    });
    expect(res.code).toBe(0);
    expect(otlp.received.map((r) => r.path)).toContain('/custom/path');
    const { resource, spans } = exported(otlp.received);
    expect(resource['service.name']).toBe('mcpc');
    const root = spans.find((s) => s.name === 'mcpc call');
    expect(root?.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(root?.parentSpanId).toBe('b7ad6b7169203331');
    expect(spans.find((s) => s.name === 'tools/call add')?.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
  });

  it('OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none export nothing', async () => {
    const otlp = await start();
    const runs = await Promise.all(
      [{ OTEL_SDK_DISABLED: 'true' }, { OTEL_TRACES_EXPORTER: 'none' }].map((extra) =>
        mcpc([...STDIO, 'call', 'echo', 'message=x'], {
          env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, ...extra },
        }),
      ),
    );
    for (const res of runs) expect([res.code, res.stderr]).toEqual([0, '']);
    expect(otlp.received).toEqual([]);
  });

  it('OTEL_TRACES_SAMPLER: always_off exports nothing; one mcpc does not know is warned of, and the default used', async () => {
    const otlp = await start();
    const off = await mcpc([...STDIO, 'call', 'echo', 'message=x'], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, OTEL_TRACES_SAMPLER: 'always_off' },
    });
    expect([off.code, off.stderr]).toEqual([0, '']);
    expect(otlp.received).toEqual([]);
    const unknown = await mcpc([...STDIO, 'call', 'echo', 'message=x'], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, OTEL_TRACES_SAMPLER: 'jaeger_remote' },
    });
    expect(unknown.stderr).toBe(
      'warning: OTEL_TRACES_SAMPLER=jaeger_remote: mcpc does not know this sampler; parentbased_always_on is used\n',
    );
    expect(exported(otlp.received).spans.map((s) => s.name)).toContain('tools/call echo');
  });

  it('a queue past its bound (OTEL_BSP_MAX_QUEUE_SIZE) drops spans and says how many', async () => {
    const otlp = await start('hang');
    const res = await mcpc([...STDIO, 'call', 'echo', 'message=x'], {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
        OTEL_BSP_MAX_QUEUE_SIZE: '1',
        OTEL_EXPORTER_OTLP_TIMEOUT: '300',
      },
    });
    expect(res.code).toBe(0);
    // The first span's export hangs; one more waits in the queue; the rest (a handshake, lists, the call) are dropped.
    expect(res.stderr).toMatch(/^warning: spans not exported to .*: no answer in \d+ ms\nwarning: \d+ spans dropped/);
    expect(Number(/(\d+) spans dropped/.exec(res.stderr)?.[1])).toBeGreaterThanOrEqual(3);
  });

  it('a failing run still exports: the root span ends in error with the failure type', async () => {
    const otlp = await start();
    const res = await mcpc([...STDIO, 'call', 'no-such-tool'], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('the server has no tool "no-such-tool"');
    const { spans } = exported(otlp.received);
    const root = spans.find((s) => s.name === 'mcpc call');
    expect(root?.status.code).toBe(STATUS_ERROR);
    expect(attributes(root)['error.type']).toMatch(/^MCPC_/);
    expect(spans.map((s) => s.name)).toContain('tools/list');
  });

  it('Ctrl-C: the interrupted run still exports its spans', async () => {
    const otlp = await start();
    const run = startMcpc([...STDIO, '-vv', 'call', 'trigger-long-running-operation', 'duration=30', 'steps=30'], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint },
    });
    // Interrupted once the call is surely in flight: -vv shows its request going out.
    await run.waitFor(/→ request tools\/call/, 20_000, 'stderr');
    const res = await run.interrupt();
    expect(res.code).toBe(130);
    const { spans } = exported(otlp.received);
    expect(spans.map((s) => s.name)).toEqual(
      expect.arrayContaining(['mcpc call', 'tools/call trigger-long-running-operation']),
    );
  });

  it('a collector that refuses: the run ends as it would, with one warning', async () => {
    const port = await closedPort();
    const started = Date.now();
    const res = await mcpc([...STDIO, 'call', 'echo', 'message=x'], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` },
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('Echo: x\n');
    expect(res.stderr).toMatch(
      new RegExp(`^warning: spans not exported to http://127\\.0\\.0\\.1:${port}/v1/traces: ECONNREFUSED`),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a collector that never answers: the run waits its deadline (3 s by default), no longer', async () => {
    const otlp = await start('hang');
    const started = Date.now();
    const res = await mcpc([...STDIO, 'call', 'echo', 'message=x'], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint },
    });
    const elapsed = Date.now() - started;
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/^warning: spans not exported to .*: no answer in 3\d{3} ms\n$/);
    expect(otlp.received.length).toBe(1);
    expect(elapsed).toBeGreaterThanOrEqual(3_000);
    expect(elapsed).toBeLessThan(12_000);
  });
});

describe('--trace', () => {
  it('prints the span tree with timings on stderr; stdout is the result alone', async () => {
    const res = await mcpc([...STDIO, 'call', 'echo', 'message=hi', '--trace']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('Echo: hi\n');
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^trace [0-9a-f]{32}$/);
    expect(lines[1]).toMatch(/^mcpc call +\+0\.0 ms +\d+\.\d ms$/);
    const ms = String.raw`\+\d+\.\d ms +\d+\.\d ms`;
    expect(res.stderr).toMatch(new RegExp(`^├─ connect +${ms}$`, 'm'));
    expect(res.stderr).toMatch(new RegExp(`^│  └─ initialize +${ms}$`, 'm'));
    expect(res.stderr).toMatch(new RegExp(`^└─ tools/call echo +${ms}$`, 'm'));
  });

  it('on 2026-07-28, server/discover is the handshake (no initialize)', async () => {
    const res = await mcpc([...MODERN_STDIO, 'call', 'add', 'a=2', 'b=3', '--trace', '--protocol', 'modern']);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/^│ {2}└─ server\/discover +\+/m);
    expect(res.stderr).not.toContain('initialize');
    expect(res.stderr).toMatch(/^└─ tools\/call add +\+/m);
  });

  it("shows a task's polls (tasks call --wait), and exports at the same time when OTEL_* asks", async () => {
    const otlp = await start();
    const res = await mcpc([...STDIO, 'tasks', 'call', 'simulate-research-query', 'topic=x', '--wait', '--trace'], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint },
      timeoutMs: 30_000,
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/^mcpc tasks /m);
    expect(res.stderr).toMatch(/^├─ tools\/call simulate-research-query +\+/m);
    expect(res.stderr).toMatch(/^[├└]─ tasks\/get +\+/m);
    const traceId = /^trace ([0-9a-f]{32})$/m.exec(res.stderr)?.[1];
    const { spans } = exported(otlp.received);
    expect(spans.filter((s) => s.name === 'tasks/get').length).toBeGreaterThan(0);
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([traceId]));
  }, 40_000);

  it('is refused where it has no connection of its own to trace, and by commands that do not take it', async () => {
    const session = await mcpc(['@nowhere', 'call', 'echo', '--trace']);
    expect(session.code).toBe(2);
    expect(session.stderr).toContain('--trace traces a connection of its own: it does not run through a session');
    const shell = await mcpc(['shell', ...STDIO], { input: 'call echo message=hi --trace\n' });
    expect(shell.stderr).toContain('--trace traces a connection of its own: it does not run in a shell');
    expect(shell.stdout).not.toContain('Echo: hi');
    const tools = await mcpc([...STDIO, 'tools', '--trace']);
    expect(tools.code).toBe(2);
    expect(tools.stderr).toContain('`tools` does not take --trace');
  });
});
