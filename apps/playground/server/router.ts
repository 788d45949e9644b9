// Matching a request to a route of the table: `METHOD /path/:param` patterns, literal segments first, params decoded.
import { ApiError } from './http.js';

interface Compiled<T> {
  method: string;
  segments: string[];
  literals: number;
  route: T;
}

export interface Match<T> {
  route: T;
  params: Record<string, string>;
}

export class Router<T> {
  readonly #routes: Compiled<T>[];

  /** @param table routes keyed `METHOD /path`, a segment `:name` matching any one segment */
  constructor(table: Readonly<Record<string, T>>) {
    this.#routes = Object.entries(table)
      .map(([key, route]) => {
        const [method = '', path = ''] = key.split(' ');
        const segments = path.split('/').slice(1);
        return { method, segments, literals: segments.filter((s) => !s.startsWith(':')).length, route };
      })
      // A literal segment wins over a parameter in the same place (`/runs` before `/:id`).
      .sort((a, b) => b.literals - a.literals);
  }

  /** The route for the method and path (a segment decoded once; a malformed escape is a 400), else undefined. */
  match(method: string, pathname: string): Match<T> | undefined {
    const parts = pathname.split('/').slice(1);
    for (const r of this.#routes) {
      if (r.method !== method || r.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const ok = r.segments.every((segment, i) => {
        const part = parts[i]!;
        if (!segment.startsWith(':')) return segment === part;
        params[segment.slice(1)] = decode(part);
        return part !== '';
      });
      if (ok) return { route: r.route, params };
    }
    return undefined;
  }
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ApiError(400, 'bad_path', `"${segment}" is not a valid path segment`);
  }
}
