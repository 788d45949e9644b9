// The servers of one client, by name, and how a call finds its server: by name, the only one, or by routing.
import { UnknownServerError } from './errors.js';
import { AmbiguousTaskError } from './tasks/errors.js';
import { Task } from './tasks/task.js';
import type { RouteOptions } from './options.js';
import { routeTool } from './routing.js';
import type { ListKindName, PageOptions, Server } from './server/server.js';
import type { ListPage } from './types/entities.js';

/** A client's servers in configuration order. */
export class ServerSet {
  readonly #servers = new Map<string, Server>();

  add(server: Server): void {
    this.#servers.set(server.name, server);
  }

  get size(): number {
    return this.#servers.size;
  }

  /** The servers, in configuration order. */
  get all(): readonly Server[] {
    return [...this.#servers.values()];
  }

  values(): IterableIterator<Server> {
    return this.#servers.values();
  }

  /** The server named `name`; throws `UnknownServerError` when there is none. */
  byName(name: string): Server {
    const server = this.#servers.get(name);
    if (server === undefined) throw new UnknownServerError(name, [...this.#servers.keys()]);
    return server;
  }

  /** Every server, connected; a server that cannot connect fails the call. */
  async connected(): Promise<readonly Server[]> {
    const servers = this.all;
    await Promise.all(servers.map((s) => s.connect()));
    return servers;
  }

  /** With one server there is nothing to route: skip the lookup (and its list request). */
  single(route: () => Promise<Server>): Promise<Server> {
    const only = this.only();
    return only === undefined ? route() : Promise.resolve(only);
  }

  only(): Server | undefined {
    return this.#servers.size === 1 ? this.#servers.values().next().value : undefined;
  }

  toolServer(name: string, explicit: string | undefined): Promise<Server> {
    if (explicit !== undefined) return Promise.resolve(this.byName(explicit));
    return this.single(() => this.connected().then((s) => routeTool(s, name)));
  }

  /**
   * The server a task is on: `{ server }`, else the handle's own, else the only server. A bare id with
   * several servers is an `AmbiguousTaskError`: ids are unique only within their server.
   */
  taskServer(task: Task | string, explicit: string | undefined): Server {
    if (explicit !== undefined) return this.byName(explicit);
    if (task instanceof Task) return this.byName(task.server);
    if (typeof task !== 'string' || task === '')
      throw new TypeError('a task is named by the Task handle callToolAsTask returned, or by its id');
    const only = this.only();
    if (only === undefined) throw new AmbiguousTaskError(task, [...this.#servers.keys()]);
    return only;
  }

  /** A list across the servers that offer `capability`, or one server's (a page of it with `cursor`). */
  async list<T>(
    kind: ListKindName,
    capability: string,
    options: (RouteOptions & Partial<PageOptions>) | undefined,
    list: (server: Server, page: PageOptions | undefined) => Promise<readonly T[] | ListPage<T>>,
  ): Promise<readonly T[] | ListPage<T>> {
    const page = options !== undefined && 'cursor' in options ? { cursor: options.cursor ?? null } : undefined;
    if (options?.server !== undefined) return list(this.byName(options.server), page);
    if (page !== undefined) {
      if (this.#servers.size !== 1) throw new TypeError(`a page of ${kind} is per server: pass { server, cursor }`);
      return list(this.all[0]!, page);
    }
    const servers = (await this.connected()).filter((s) => s.supports(capability));
    const lists = (await Promise.all(servers.map((s) => list(s, undefined)))) as (readonly T[])[];
    return lists.length === 1 ? lists[0]! : lists.flat();
  }
}
