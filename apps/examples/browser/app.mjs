// A page that connects to a Streamable HTTP server, lists its tools and calls one, answering elicitations in a form.
//
// A click calls the tool. Build it, then serve the folder:
//
//   npx esbuild app.mjs --bundle --format=esm --outfile=dist/app.js && npx serve .   (or any static server)
//
// The server must allow the page's origin (CORS) and expose Mcp-Session-Id, as the playground's demo
// server does (`node apps/playground/demo-server/server.mjs http`).

// @ts-check
/* global document */
import { Client, streamableHttp, textOf } from '@mcpc/client';
import './sign-in.mjs';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @type {Client | undefined} */
let client;

/**
 * The server's question as a form, one text field per property of its schema; resolves with the answer.
 * @param {{ message: string, requestedSchema?: { properties?: Record<string, { title?: string }> } }} request
 */
function ask(request) {
  return new Promise((resolve) => {
    const form = document.createElement('form');
    const title = document.createElement('strong');
    title.textContent = request.message; // a server's text: shown as text, never as HTML
    form.append(title);
    for (const [name, field] of Object.entries(request.requestedSchema?.properties ?? {})) {
      const label = document.createElement('label');
      label.textContent = `${field.title ?? name} `;
      const input = document.createElement('input');
      input.name = name;
      label.append(input);
      form.append(label);
    }
    const send = document.createElement('button');
    send.textContent = 'Send';
    form.append(send);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const content = Object.fromEntries([...new FormData(form)].filter(([, v]) => v !== ''));
      form.remove();
      resolve({ action: 'accept', content });
    });
    $('question').append(form);
  });
}

$('connect').addEventListener('submit', async (event) => {
  event.preventDefault();
  await client?.close();
  const url = /** @type {HTMLInputElement} */ ($('url')).value;
  client = new Client({
    servers: [streamableHttp({ name: 'server', url })],
    // Form answers are strings: numbers and booleans the schema asks for are the server's to coerce.
    onElicitation: (request) => ask(/** @type {any} */ (request)),
  });
  try {
    await client.connect();
    const server = client.servers[0];
    $('status').textContent = `Connected to ${server?.serverInfo.name} (MCP ${server?.protocolVersion}).`;
    $('tools').replaceChildren(
      ...(await client.listTools()).map((tool) => {
        const item = document.createElement('li');
        item.textContent = tool.name;
        const call = document.createElement('button');
        call.textContent = 'Call';
        call.dataset.tool = tool.name;
        call.addEventListener('click', async () => {
          $('result').textContent = '…';
          try {
            $('result').textContent = textOf(await /** @type {Client} */ (client).callTool(tool.name, {}));
          } catch (error) {
            $('result').textContent = `${/** @type {Error} */ (error).name}: ${/** @type {Error} */ (error).message}`;
          }
        });
        item.append(call);
        return item;
      }),
    );
  } catch (error) {
    $('status').textContent = `Could not connect: ${/** @type {Error} */ (error).message}`;
  }
});
