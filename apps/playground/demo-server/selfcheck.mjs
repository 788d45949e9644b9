#!/usr/bin/env node
// selfcheck.mjs: drives every feature of the demo server with @mcpc/client, on both eras over stdio and HTTP.
//
//   node selfcheck.mjs [--oauth]     (exits 1 on the first mismatch; --oauth also checks /mcp-protected)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client, StructuredContentError, stdio, streamableHttp, textOf } from '@mcpc/client';

const SERVER = fileURLToPath(new URL('./server.mjs', import.meta.url));
const COUNTER = 'demo://counter';
const TOOLS = [
  'add',
  'echo',
  'slow-count',
  'fail-tool',
  'bad-output',
  'ask-name',
  'open-link',
  'summarize',
  'two-step',
  'long-task',
  'add-tool',
  'show-chart',
];
let failures = 0;

function check(label, ok, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}${ok || !detail ? '' : ` — ${detail}`}`);
  if (!ok) failures++;
}
async function attempt(label, fn) {
  try {
    await fn();
  } catch (e) {
    check(label, false, `${e?.name}: ${e?.message}`);
  }
}
const within = (ms, promise, what) =>
  Promise.race([promise, new Promise((_, rej) => setTimeout(() => rej(new Error(`no ${what} within ${ms} ms`)), ms))]);

function startHttp(args) {
  const child = spawn(process.execPath, [SERVER, 'http', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const out = {};
    const timer = setTimeout(() => reject(new Error('the demo server did not start')), 150_000);
    lines.on('line', (line) => {
      const [key, value] = line.split(' ');
      out[key] = value;
      if (out.listening && (!args.includes('--oauth') || out['authorization-server'])) {
        clearTimeout(timer);
        resolve({ ...out, stop: () => child.kill('SIGTERM') });
      }
    });
    child.once('exit', (code) => reject(new Error(`the demo server exited (${code})`)));
  });
}

function answers(request) {
  if (request.mode === 'url') return { action: 'accept' };
  const message = request.message;
  if (message.startsWith('Who are you'))
    return { action: 'accept', content: { name: 'Ada', age: 36, color: 'blue', subscribe: true } };
  if (message.startsWith('Step 1')) return { action: 'accept', content: { city: 'Paris' } };
  if (message.startsWith('Step 2')) return { action: 'accept', content: { days: 3 } };
  if (message.startsWith('Halfway')) return { action: 'accept', content: { proceed: true } };
  return { action: 'decline' };
}

async function run(label, config, era) {
  console.log(`\n# ${label}`);
  const notifications = [];
  const client = new Client({
    servers: [config],
    clientInfo: { name: 'demo-selfcheck', version: '1.0.0' },
    logger: { debug() {}, info() {}, warn() {}, error: (...a) => console.error(...a) },
    extensions: ['io.modelcontextprotocol/tasks'],
    elicitationModes: ['form', 'url'],
    onElicitation: async (request) => answers(request),
    onSampling: async () => ({
      model: 'selfcheck-model',
      role: 'assistant',
      content: { type: 'text', text: 'A short summary.' },
    }),
    deprecationNotices: false,
  });
  client.onNotification((_server, method, params) => notifications.push({ method, params }));
  try {
    await client.connect();
    const server = client.servers[0];
    check(`era ${era}`, server.protocolEra === era, `got ${server.protocolEra} ${server.protocolVersion}`);
    await attempt('tools/list', async () => {
      const names = (await client.listTools()).map((t) => t.name);
      const missing = TOOLS.filter((n) => !names.includes(n));
      check('tools/list has every demo tool', missing.length === 0, `missing ${missing}`);
      const chart = (await client.listTools()).find((t) => t.name === 'show-chart');
      check(
        'show-chart _meta.ui.resourceUri',
        chart?._meta?.ui?.resourceUri === 'ui://demo/chart',
        JSON.stringify(chart?._meta),
      );
    });
    await attempt('add', async () => {
      const r = await client.callTool('add', { a: 1, b: 2 });
      check('add → structuredContent {sum: 3}', r.structuredContent?.sum === 3 && textOf(r) === '3', JSON.stringify(r));
    });
    await attempt('echo', async () => check('echo', textOf(await client.callTool('echo', { message: 'hi' })) === 'hi'));
    await attempt('slow-count', async () => {
      const seen = [];
      const r = await client.callTool(
        'slow-count',
        { steps: 3, delayMs: 20 },
        { onProgress: (p) => seen.push(p.progress) },
      );
      check(
        'slow-count progress 1,2,3',
        seen.join(',') === '1,2,3' && textOf(r) === 'counted to 3',
        `${seen} ${textOf(r)}`,
      );
    });
    await attempt('fail-tool', async () =>
      check('fail-tool → isError', (await client.callTool('fail-tool', {})).isError === true),
    );
    await attempt('bad-output', async () => {
      const error = await client.callTool('bad-output', {}, { validateStructuredContent: 'strict' }).then(
        () => undefined,
        (e) => e,
      );
      check('bad-output breaks its outputSchema', error instanceof StructuredContentError, String(error));
    });
    await attempt('ask-name', async () => {
      const t = textOf(await client.callTool('ask-name', {}));
      check('ask-name (form elicitation)', t === 'Hello, Ada, 36 years old, likes blue, subscribed!', t);
    });
    await attempt('open-link', async () => {
      const t = textOf(await client.callTool('open-link', {}));
      check('open-link (URL elicitation)', t === 'URL elicitation answered: accept', t);
    });
    await attempt('summarize', async () => {
      const t = textOf(await client.callTool('summarize', { text: 'MCP connects models to tools.' }));
      check('summarize (sampling)', t === 'Summary (selfcheck-model): A short summary.', t);
    });
    await attempt('two-step', async () => {
      const t = textOf(await client.callTool('two-step', {}));
      check('two-step (two input rounds)', t === 'Trip planned: 3 days in Paris', t);
    });
    await attempt('long-task', async () => {
      if (era === 'modern') {
        const statuses = [];
        const task = await client.callToolAsTask('long-task', { steps: 4 });
        check('long-task became a task', !task.direct && typeof task.taskId === 'string', task.status);
        const done = await client.waitForTask(task, { timeout: 30_000, onStatus: (t) => statuses.push(t.status) });
        check(
          'long-task completed after input_required',
          done.status === 'completed' &&
            textOf(done.result ?? []) === 'long task finished 4 steps' &&
            statuses.includes('input_required'),
          `${done.status} ${statuses}`,
        );
      } else {
        const seen = [];
        const t = textOf(
          await client.callTool('long-task', { steps: 2 }, { onProgress: (p) => seen.push(p.progress) }),
        );
        check(
          'long-task inline on 2025-11-25 (elicitation, then progress)',
          t === 'long task finished 2 steps' && seen.length === 2,
          `${t} ${seen}`,
        );
      }
    });
    await attempt('prompts', async () => {
      check(
        'prompts/list greeting',
        (await client.listPrompts()).some((p) => p.name === 'greeting'),
      );
      const p = await client.getPrompt('greeting', { name: 'Ada', style: 'pirate' });
      check('prompts/get greeting', p.messages[0]?.content?.text?.includes('Ahoy, Ada!'), JSON.stringify(p));
      const style = await client.complete({
        ref: { type: 'ref/prompt', name: 'greeting' },
        argument: { name: 'style', value: 'p' },
      });
      check('complete style p → pirate', style.values.join() === 'pirate', style.values.join());
      const name = await client.complete({
        ref: { type: 'ref/prompt', name: 'greeting' },
        argument: { name: 'name', value: 'a' },
      });
      check('complete name a → Ada, Alan', name.values.join() === 'Ada,Alan', name.values.join());
    });
    await attempt('skills', async () => {
      const skills = await client.listSkills();
      const labels = skills.map((s) => s.label);
      check(
        'skills/list (7, the two hotfix labelled apart)',
        skills.length === 7 && labels.includes('demo:release/hotfix'),
        labels.join(),
      );
      const forms = await client.loadSkill('pdf-forms');
      check(
        'load pdf-forms, read references/api/fields.md verified',
        (await forms.readFile('references/api/fields.md')).text.startsWith('# Fields'),
      );
      const daily = await client.loadSkill('daily-status', { allowDynamic: true });
      const dir = await daily.listDirectory('data');
      check(
        'dynamic daily-status: resources/directory/read',
        dir.some((i) => i.name === 'today.md'),
      );
      const lying = await client.loadSkill('lying-digest').then(
        () => 'loaded',
        (e) => e.reason,
      );
      check('lying-digest refused (digest)', lying === 'digest', lying);
    });
    await attempt('resources', async () => {
      const uris = (await client.listResources()).map((r) => r.uri);
      check(
        'resources/list',
        ['demo://readme', 'demo://config.json', 'demo://logo.png', COUNTER].every((u) => uris.includes(u)),
        uris.join(),
      );
      const templates = await client.listResourceTemplates();
      check(
        'template demo://notes/{id}',
        templates.some((t) => t.uriTemplate === 'demo://notes/{id}'),
      );
      const [readme] = await client.readResource('demo://readme');
      check(
        'read readme (markdown)',
        readme.isText() && readme.mimeType === 'text/markdown' && readme.text.startsWith('# '),
      );
      const [config] = await client.readResource('demo://config.json');
      check('read config.json (JSON)', JSON.parse(config.text).name === 'mcpc-demo');
      const [logo] = await client.readResource('demo://logo.png');
      const bytes = logo.bytes();
      check(
        'read logo.png (binary PNG)',
        logo.isBinary() && bytes[0] === 0x89 && bytes[1] === 0x50,
        `${bytes.length} bytes`,
      );
      const [note] = await client.readResource('demo://notes/42');
      check('read demo://notes/42', note.text === 'The answer');
      const id = await client.complete({
        ref: { type: 'ref/resource', uri: 'demo://notes/{id}' },
        argument: { name: 'id', value: '4' },
      });
      check('complete note id 4 → 42', id.values.join() === '42', id.values.join());
      const [app] = await client.readResource('ui://demo/chart');
      check(
        'read ui://demo/chart (text/html;profile=mcp-app)',
        app.mimeType === 'text/html;profile=mcp-app' && app.text.includes('ui/initialize'),
      );
      const chart = await client.callTool('show-chart', { values: [1, 2, 3] });
      check('show-chart result', chart.structuredContent?.max === 3, JSON.stringify(chart.structuredContent));
    });
    await attempt('subscription', async () => {
      await server.subscribeResource(COUNTER);
      const first = notifications.length;
      await within(
        6000,
        (async () => {
          for (let i = 0; i < 60; i++) {
            if (
              notifications
                .slice(first)
                .some((n) => n.method === 'notifications/resources/updated' && n.params?.uri === COUNTER)
            )
              return;
            await new Promise((r) => setTimeout(r, 100));
          }
          throw new Error('no update');
        })(),
        'resources/updated',
      );
      check(`counter update (${era === 'modern' ? 'subscriptions/listen' : 'resources/subscribe'})`, true);
      await server.unsubscribeResource(COUNTER);
    });
    await attempt('add-tool', async () => {
      const t = textOf(await client.callTool('add-tool', {}));
      const n = /extra-(\d+)/.exec(t)?.[1];
      client.clearCache('tools');
      const names = (await client.listTools()).map((x) => x.name);
      check('add-tool → new tool listed', n !== undefined && names.includes(`extra-${n}`), `${t}; ${names.join()}`);
      check(`extra-${n} callable`, textOf(await client.callTool(`extra-${n}`, {})) === `extra-${n} says hi`);
      if (era === 'legacy') {
        await new Promise((r) => setTimeout(r, 300));
        check(
          'tools/list_changed notification',
          notifications.some((x) => x.method === 'notifications/tools/list_changed'),
        );
      }
    });
  } catch (e) {
    check(`${label} connects`, false, `${e?.name}: ${e?.message}`);
  } finally {
    await client.close();
  }
}

const http = await startHttp(process.argv.includes('--oauth') ? ['--oauth'] : []);
try {
  for (const era of ['modern', 'legacy']) {
    await run(
      `stdio, ${era}`,
      stdio({ name: 'demo', command: process.execPath, args: [SERVER, 'stdio'], protocol: era }),
      era,
    );
    await run(`http, ${era}`, streamableHttp({ name: 'demo', url: http.listening, protocol: era }), era);
  }
  if (http['authorization-server']) {
    console.log('\n# oauth');
    const protectedUrl = http.listening.replace(/\/mcp$/, '/mcp-protected');
    const refused = await fetch(protectedUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const challenge = refused.headers.get('www-authenticate') ?? '';
    check('401 with resource_metadata', refused.status === 401 && challenge.includes('resource_metadata="'), challenge);
    const prm = await (await fetch(/resource_metadata="([^"]+)"/.exec(challenge)[1])).json();
    check(
      'RFC 9728 metadata names the authorization server',
      prm.authorization_servers?.[0] === http['authorization-server'],
    );
    const token = await (
      await fetch(`${http['authorization-server']}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from('playground-demo:playground-demo-secret').toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp', resource: protectedUrl }),
      })
    ).json();
    for (const era of ['modern', 'legacy']) {
      const client = new Client({
        servers: [
          streamableHttp({
            name: 'p',
            url: protectedUrl,
            protocol: era,
            headers: { authorization: `Bearer ${token.access_token}` },
          }),
        ],
      });
      try {
        check(`protected call (${era})`, textOf(await client.callTool('add', { a: 2, b: 5 })) === '7');
      } catch (e) {
        check(`protected call (${era})`, false, e.message);
      } finally {
        await client.close();
      }
    }
  }
} finally {
  http.stop();
}
console.log(failures === 0 ? '\nselfcheck: all passed' : `\nselfcheck: ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
