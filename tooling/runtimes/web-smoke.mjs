// The smoke run where only web APIs exist (a browser page, a Worker), over fetch.
//
// Streamable HTTP over fetch against server-everything, the schema verdicts, the feature scenario against the demo
// server in both eras, and OAuth client credentials on its protected endpoint. Bundled by the test with the `browser`
// or `workerd` condition.

// First: the census sees every timer the libraries set.
import { openTimers } from './timer-census.mjs';
import { stdio, streamableHttp } from '@mcpc/client';
import { clientCredentials, exercise, scenario, schemaVerdicts } from './smoke-core.mjs';

export { tokenExchange } from './smoke-core.mjs';

/**
 * What a runtime without processes gives for server-everything at `url`, the demo server at `demo`, and
 * its OAuth-protected endpoint at `protectedUrl`.
 */
export async function webSmoke(url, demo, protectedUrl) {
  return {
    http: await exercise(streamableHttp({ name: 'everything', url })),
    // A stdio server cannot run here: a typed error that says why, not a broken bundle.
    stdio: await exercise(stdio({ name: 'everything', command: 'node', args: ['server.js'] })),
    schema: schemaVerdicts(),
    modern: await scenario(demo, undefined),
    legacy: await scenario(demo, 'legacy'),
    clientCredentials: await clientCredentials(protectedUrl),
    // Every client is closed: no timer of theirs may still be scheduled.
    openTimers: await new Promise((resolve) => setTimeout(() => resolve(openTimers()), 50)),
  };
}
