// The smoke run where only web APIs exist (a browser page, a Worker): Streamable HTTP over fetch against
// server-everything, and the schema verdicts. Bundled by the test with the `browser` or `workerd` condition.
import { stdio, streamableHttp } from '@mcpc/client';
import { exercise, schemaVerdicts } from './smoke-core.mjs';

/** What a runtime without processes gives for the server at `url`. */
export async function webSmoke(url) {
  return {
    http: await exercise(streamableHttp({ name: 'everything', url })),
    // A stdio server cannot run here: a typed error that says why, not a broken bundle.
    stdio: await exercise(stdio({ name: 'everything', command: 'node', args: ['server.js'] })),
    schema: schemaVerdicts(),
  };
}
