// The smoke run where processes exist (Node, Deno, Bun): stdio and Streamable HTTP (the default client and
// fetch) against server-everything, and the schema verdicts; prints one JSON line.
// usage: <runtime> smoke.mjs <node-binary> <server-everything script> <streamable-http url>
import { stdio, streamableHttp } from '@mcpc/client';
import { exercise, schemaVerdicts } from './smoke-core.mjs';

const [node, everything, url] = process.argv.slice(2);
if (node === undefined || everything === undefined || url === undefined) {
  console.error('usage: smoke.mjs <node-binary> <server-everything script> <streamable-http url>');
  process.exit(2);
}

const report = {
  stdio: await exercise(stdio({ name: 'everything', command: node, args: [everything, 'stdio'] })),
  http: await exercise(streamableHttp({ name: 'everything', url })),
  httpFetch: await exercise(streamableHttp({ name: 'everything', url, httpClient: 'fetch' })),
  schema: schemaVerdicts(),
};
console.log(JSON.stringify(report));
