// mcpc with @opentelemetry/api installed and no SDK registered: every request meets the API's no-op tracer.
//
// The workspace's client resolves the API; nothing registers a tracer provider, so the global tracer is the
// API's proxy to its no-op: the client installs its request observer, which starts a non-recording span per
// request and leaves the request untouched.
import { createRequire } from 'node:module';
import { trace } from '@opentelemetry/api';
import { connectWith } from './mcpc.mjs';
import * as mcpc from '@mcpc/client';
import '@mcpc/transport-stdio';
import '@mcpc/transport-streamable-http';
import 'node:http';

export const label = 'mcpc, no-op tracer';

export function connect(target) {
  // The client finds the API from where it runs, and nothing has replaced the no-op provider.
  const client = createRequire(import.meta.url).resolve('@mcpc/client');
  createRequire(client).resolve('@opentelemetry/api'); // throws if the client could not load it
  if (trace.getTracerProvider().getDelegateTracer?.('probe') !== undefined)
    throw new Error('a tracer provider is registered: not a no-op row');
  return connectWith(mcpc, target, { httpClient: 'node' });
}
