// A server's elicitation or sampling request, raised to the page as an event and answered by POST /api/dialogs/:id.
import { randomUUID } from 'node:crypto';
import type { ElicitationRequest, SamplingRequest } from '@mcpc/client/types';
import type { DialogReply, DialogEvent, ElicitationReply, SamplingReply } from '../contract/api.js';
import type { Emit } from './events.js';

/** How long a dialog waits for the person before it is cancelled (elicitation) or declined (sampling). */
export const DIALOG_TIMEOUT_MS = 5 * 60_000;

/** What each kind of dialog carries and is answered with. */
interface DialogKinds {
  elicitation: { request: ElicitationRequest; answer: ElicitationReply };
  sampling: { request: SamplingRequest; answer: SamplingReply };
}
type Kind = keyof DialogKinds;

export type OpenDialog = {
  [K in Kind]: {
    id: string;
    kind: K;
    serverId: string;
    request: DialogKinds[K]['request'];
    settle: (answer: DialogKinds[K]['answer'] | undefined) => void;
  };
}[Kind];

export class Dialogs {
  readonly #open = new Map<string, OpenDialog>();

  constructor(
    private readonly emit: Emit,
    private readonly timeoutMs = DIALOG_TIMEOUT_MS,
  ) {}

  /** Raises a dialog and resolves with the person's answer, or `undefined` when it timed out or was abandoned. */
  ask<K extends Kind>(
    kind: K,
    serverId: string,
    request: DialogKinds[K]['request'],
    signal?: AbortSignal,
  ): Promise<DialogKinds[K]['answer'] | undefined> {
    const id = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(undefined), this.timeoutMs);
      timer.unref();
      const onAbort = () => settle(undefined);
      const settle = (answer: DialogKinds[K]['answer'] | undefined) => {
        if (!this.#open.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.emit({ type: 'dialog-closed', dialogId: id });
        resolve(answer);
      };
      const dialog = { id, kind, serverId, request, settle } as OpenDialog;
      this.#open.set(id, dialog);
      if (signal?.aborted) return settle(undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.emit(opening(dialog));
    });
  }

  /** The open dialogs, as their opening events (for a page that connects late). */
  pending(): DialogEvent[] {
    return [...this.#open.values()].map(opening);
  }

  get(id: string): OpenDialog | undefined {
    return this.#open.get(id);
  }

  /** Closes every dialog a server raised (it was removed or reconnected). */
  abandon(serverId: string): void {
    for (const d of [...this.#open.values()]) if (d.serverId === serverId) d.settle(undefined);
  }
}

/** The event that opens a dialog on the page. */
function opening(d: OpenDialog): DialogEvent {
  return d.kind === 'elicitation'
    ? { type: 'elicitation', dialogId: d.id, serverId: d.serverId, request: d.request }
    : { type: 'sampling', dialogId: d.id, serverId: d.serverId, request: d.request };
}

export type { DialogReply };
