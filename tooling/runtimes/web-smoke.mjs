// The smoke run where only web APIs exist (a browser page, a Worker): Streamable HTTP over fetch against
// server-everything, the schema verdicts, and the feature scenario against the demo server in both eras.
// Bundled by the test with the `browser` or `workerd` condition.
import { stdio, streamableHttp } from '@mcpc/client';
import { exercise, scenario, schemaVerdicts } from './smoke-core.mjs';

/** What a runtime without processes gives for server-everything at `url` and the demo server at `demo`. */
export async function webSmoke(url, demo) {
  return {
    http: await exercise(streamableHttp({ name: 'everything', url })),
    // A stdio server cannot run here: a typed error that says why, not a broken bundle.
    stdio: await exercise(stdio({ name: 'everything', command: 'node', args: ['server.js'] })),
    schema: schemaVerdicts(),
    modern: await scenario(demo, undefined),
    legacy: await scenario(demo, 'legacy'),
  };
}
