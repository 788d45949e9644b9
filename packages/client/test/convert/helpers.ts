// Shared helpers of the converter tests: sample tools, deep freezing, and a fetch that records request bodies.
import type { ConvertibleTool } from '../../src/convert/index.js';

/** Freezes `value` and everything reachable from it, so any write by a converter throws. */
export function deepFreeze<V>(value: V): V {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}

/** A tool list as servers send them: a clean tool, a dotted name, no description, odd schemas. */
export function sampleTools() {
  return deepFreeze([
    {
      name: 'get_weather',
      title: 'Weather',
      description: 'Current weather for a city',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string', description: 'City name' }, units: { enum: ['metric', 'imperial'] } },
        required: ['city'],
        additionalProperties: false,
      },
    },
    {
      name: 'github.create_issue',
      title: 'Create issue',
      inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
    },
    { name: 'ping', inputSchema: { type: 'object' } },
  ] as const satisfies readonly ConvertibleTool[]);
}

/** The Chat Completions name of `github.create_issue`, pinned by names.test.ts. */
export const GITHUB_OPENAI_NAME = 'github_create_issue_a03beba8';

/**
 * A `fetch` that never touches the network: records each request's JSON body and URL and answers
 * with `respond(body)` as a 200 JSON response.
 */
export function recordingFetch(respond: (body: Record<string, unknown>) => unknown) {
  const requests: { url: string; body: Record<string, unknown> }[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const raw = init?.body ?? (input instanceof Request ? await input.text() : undefined);
    const body = JSON.parse(String(raw)) as Record<string, unknown>;
    requests.push({ url, body });
    return new Response(JSON.stringify(respond(body)), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, requests };
}
