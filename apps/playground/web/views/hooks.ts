// Shared hooks for the views: event subscriptions and per-server lists that refresh on list_changed.
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, on, type EventOf, type EventType, type ServerView } from '../api.js';

/** Subscribe to an event type for the component's life; the handler may change between renders. */
export function useEvent<T extends EventType>(type: T, fn: (e: EventOf<T>) => void): void {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => on(type, (e) => ref.current(e)), [type]);
}

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Load a list for the selected server; reload when the server (re)connects or sends the given
 * list_changed notification.
 */
export function useServerList<T>(
  server: ServerView | undefined,
  load: (id: string) => Promise<T>,
  listChanged?: string,
): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const [tick, setTick] = useState(0);
  const id = server?.id;
  const ready = server?.state === 'connected';
  useEffect(() => {
    setData(undefined);
    setError(undefined);
    if (!id || !ready) return;
    let live = true;
    setLoading(true);
    load(id)
      .then((d) => live && setData(d))
      .catch((e) => live && setError(errorText(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [id, ready, tick]);
  useEvent('notification', (e) => {
    if (listChanged && e.serverId === id && e.method === listChanged) setTick((t) => t + 1);
  });
  return { data, error, loading, reload: () => setTick((t) => t + 1) };
}
