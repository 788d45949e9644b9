// The demo's resource table: text, JSON, a PNG, the ticking counter, a template of notes, the MCP App's ui:// page.
//
// Subscriptions: on the 2026-07-28 leg the SDK's subscriptions/listen streams; on the 2025-11-25 leg this module's
// resources/subscribe handlers, whose set the counter's tick (state.mjs) reads.
import { deflateSync } from 'node:zlib';
import { ProtocolError, ResourceTemplate } from '@modelcontextprotocol/server';
import { APP_MIME_TYPE, CHART_HTML, CHART_URI } from './chart-app.mjs';
import { COUNTER_MS, COUNTER_URI, MAX_STEPS, now, state } from './state.mjs';

const NOTES = {
  1: 'Buy milk',
  2: 'Read the MCP 2026-07-28 changelog',
  3: 'Try the playground protocol view',
  42: 'The answer',
};

// A 16×16 PNG (a blue square with a white diagonal), built at start-up so no binary file is checked in.
function makeLogo() {
  const size = 16;
  const raw = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    raw[y * (1 + size * 3)] = 0;
    for (let x = 0; x < size; x++) {
      const o = y * (1 + size * 3) + 1 + x * 3;
      const on = x === y || x === size - 1 - y;
      raw[o] = on ? 255 : 37;
      raw[o + 1] = on ? 255 : 99;
      raw[o + 2] = on ? 255 : 235;
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const LOGO = makeLogo().toString('base64');

const README = `# mcpc playground demo server

A server for trying every MCP feature the playground shows, on MCP 2026-07-28 and 2025-11-25.

- **Tools:** \`add\`, \`echo\`, \`slow-count\` (progress), \`fail-tool\`, \`bad-output\`, \`ask-name\`
  (elicitation), \`open-link\` (URL elicitation), \`summarize\` (sampling), \`two-step\`, \`long-task\`
  (a task), \`add-tool\` (list_changed), \`show-chart\` (an MCP App).
- **Resources:** this file, \`demo://config.json\`, \`demo://logo.png\`, \`demo://counter\` (subscribe to it),
  \`demo://notes/{id}\`.
- **Prompts:** \`greeting\`.
`;

/** Registers every resource and template on `server`. */
export function registerResources(server) {
  server.registerResource(
    'readme',
    'demo://readme',
    { title: 'README', description: 'About this server (markdown)', mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: README }] }),
  );
  server.registerResource(
    'config',
    'demo://config.json',
    { title: 'Configuration', description: 'A JSON document', mimeType: 'application/json' },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify(
            {
              name: 'mcpc-demo',
              features: ['tools', 'prompts', 'resources', 'tasks', 'apps'],
              limits: { steps: MAX_STEPS },
            },
            null,
            2,
          ),
        },
      ],
    }),
  );
  server.registerResource(
    'logo',
    'demo://logo.png',
    { title: 'Logo', description: 'A 16×16 PNG (binary)', mimeType: 'image/png' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: LOGO }] }),
  );
  server.registerResource(
    'counter',
    COUNTER_URI,
    { title: 'Counter', description: `Changes every ${COUNTER_MS / 1000} s; subscribe to it`, mimeType: 'text/plain' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: `counter ${state.counter} at ${now()}` }],
    }),
  );
  server.registerResource(
    'note',
    new ResourceTemplate('demo://notes/{id}', {
      list: async () => ({
        resources: Object.entries(NOTES).map(([id, note]) => ({
          uri: `demo://notes/${id}`,
          name: `note ${id}`,
          description: note,
          mimeType: 'text/plain',
        })),
      }),
      complete: { id: (value) => Object.keys(NOTES).filter((id) => id.startsWith(String(value ?? ''))) },
    }),
    { title: 'Note', description: 'A note by id (1, 2, 3, 42)', mimeType: 'text/plain' },
    async (uri, { id }) => {
      const note = NOTES[String(id)];
      if (note === undefined) throw new ProtocolError(-32602, `Resource ${uri.href} not found`, { uri: uri.href });
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: note }] };
    },
  );
  // MCP Apps "UI Resource Format": mimeType text/html;profile=mcp-app, no csp → the host's restrictive default.
  server.registerResource(
    'chart-app',
    CHART_URI,
    { title: 'Chart app', description: 'The MCP App of show-chart', mimeType: APP_MIME_TYPE },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: APP_MIME_TYPE, text: CHART_HTML, _meta: { ui: { prefersBorder: true } } }],
    }),
  );
}

/** 2025-11-25 resources/subscribe: this connection's subscriptions, fed by the counter's tick. */
export function registerSubscriptions(server) {
  const subscriptions = new Set();
  server.server.setRequestHandler('resources/subscribe', async (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', async (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });
  server.subscriptions = subscriptions;
}
