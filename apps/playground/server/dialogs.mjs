// Dialogs: a server's elicitation or sampling request, raised to the page as an event and answered by POST /api/dialogs/:id.
// @ts-check
import { randomUUID } from 'node:crypto';

/** How long a dialog waits for the person before it is cancelled (elicitation) or declined (sampling). */
export const DIALOG_TIMEOUT_MS = 5 * 60_000;

/**
 * @typedef {{ id: string, kind: 'elicitation' | 'sampling', serverId: string, request: unknown,
 *   settle: (answer: unknown) => void }} OpenDialog
 */

export class Dialogs {
  /** @type {Map<string, OpenDialog>} */
  #open = new Map();

  /** @param {(event: { type: string } & Record<string, unknown>) => void} emit */
  constructor(emit, timeoutMs = DIALOG_TIMEOUT_MS) {
    this.emit = emit;
    this.timeoutMs = timeoutMs;
  }

  /**
   * Raises a dialog and resolves with the person's answer, or `undefined` when it timed out or was abandoned.
   * @param {'elicitation' | 'sampling'} kind
   * @param {string} serverId
   * @param {unknown} request
   * @param {AbortSignal} [signal] the server cancelled, or the connection closed
   * @returns {Promise<unknown>}
   */
  ask(kind, serverId, request, signal) {
    const id = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(undefined), this.timeoutMs);
      timer.unref();
      const onAbort = () => settle(undefined);
      const settle = (/** @type {unknown} */ answer) => {
        if (!this.#open.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.emit({ type: 'dialog-closed', dialogId: id });
        resolve(answer);
      };
      this.#open.set(id, { id, kind, serverId, request, settle });
      if (signal?.aborted) return settle(undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.emit({ type: kind, dialogId: id, serverId, request });
    });
  }

  /** The open dialogs, as their opening events (for a page that connects late). */
  pending() {
    return [...this.#open.values()].map((d) => ({
      type: d.kind,
      dialogId: d.id,
      serverId: d.serverId,
      request: d.request,
    }));
  }

  /** @param {string} id @returns {OpenDialog | undefined} */
  get(id) {
    return this.#open.get(id);
  }

  /** Closes every dialog a server raised (it was removed or reconnected). @param {string} serverId */
  abandon(serverId) {
    for (const d of [...this.#open.values()]) if (d.serverId === serverId) d.settle(undefined);
  }
}
