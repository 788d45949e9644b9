// The host's answers to a View's requests that reach the server or the user: tools/call, resources/read, links, files.
import { api, callState, connectEvents, on, streamOpen, type CallState, type ToolView } from '../api.js';
import { RpcCode, RpcFailure, type BridgeHandlers, type JsonObject } from './bridge.js';
import { fileName, isObj } from './panel-logic.js';

const CALL_TIMEOUT_MS = 120_000;
const STREAM_WAIT_MS = 5_000;
const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

/** What one View may ask of the host through the playground (its requests end when `signal` aborts). */
export type AppRequests = Pick<BridgeHandlers, 'callTool' | 'readResource' | 'openLink' | 'downloadFile'>;

/** The request handlers for one View of `serverId`: tool calls (refused when not visible to apps), reads, links, files. */
export function appRequests(serverId: string, signal: AbortSignal): AppRequests {
  let toolsCache: ToolView[] | undefined;

  const visibleToApps = async (name: string): Promise<void> => {
    if (!toolsCache || !toolsCache.some((t) => t.name === name)) toolsCache = await api.tools(serverId);
    const t = toolsCache.find((x) => x.name === name);
    const ui = t?._meta?.ui as { visibility?: unknown } | undefined;
    if (Array.isArray(ui?.visibility) && !ui.visibility.includes('app')) {
      throw new RpcFailure(
        RpcCode.Denied,
        `tool "${name}" is not visible to apps (visibility ${JSON.stringify(ui.visibility)})`,
      );
    }
  };

  return {
    callTool: async (name, args) => {
      await visibleToApps(name);
      await ensureStream();
      const { callId } = await api.call(serverId, name, args);
      let s: CallState;
      try {
        s = await waitForResult(callId, signal);
      } catch (err) {
        void api.cancelCall(callId).catch(() => undefined);
        throw err;
      }
      if (s.error) {
        const code = typeof s.error.code === 'number' ? s.error.code : RpcCode.InternalError;
        throw new RpcFailure(code, s.error.message);
      }
      const r = (s.result ?? {}) as JsonObject;
      return Array.isArray(r.content) ? r : { ...r, content: [] };
    },
    readResource: (uri) => api.read(serverId, uri),
    openLink: async (url) => {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new RpcFailure(RpcCode.InvalidParams, 'Invalid URL');
      }
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
        throw new RpcFailure(RpcCode.Denied, `Policy violation: only http(s) links open (${parsed.protocol})`);
      }
      if (!confirm(`The app wants to open this link in a new tab:\n\n${parsed.href}\n\nOpen it?`)) {
        throw new RpcFailure(RpcCode.Denied, 'Link opening denied by user');
      }
      window.open(parsed.href, '_blank', 'noopener,noreferrer');
    },
    downloadFile: (contents) => download(serverId, contents),
  };
}

/** `ui/download-file`: the resources named, read when linked, saved after the user confirms (at most 20 MiB). */
async function download(serverId: string, contents: unknown[]): Promise<JsonObject> {
  const files: { name: string; blob: Blob }[] = [];
  let total = 0;
  for (const [i, item] of contents.entries()) {
    if (!isObj(item)) throw new RpcFailure(RpcCode.InvalidParams, 'contents items must be objects');
    let res: JsonObject | undefined;
    if (item.type === 'resource' && isObj(item.resource)) res = item.resource;
    else if (item.type === 'resource_link' && typeof item.uri === 'string') {
      const read = await api.read(serverId, item.uri);
      res = read.contents[0] as unknown as JsonObject | undefined;
    }
    if (!res) throw new RpcFailure(RpcCode.InvalidParams, `contents[${i}]: not an embedded resource or resource link`);
    const mime = typeof res.mimeType === 'string' ? res.mimeType : 'application/octet-stream';
    let blob: Blob;
    if (typeof res.text === 'string') blob = new Blob([res.text], { type: mime });
    else if (typeof res.blob === 'string') blob = new Blob([base64ToBytes(res.blob)], { type: mime });
    else throw new RpcFailure(RpcCode.InvalidParams, `contents[${i}]: no text or blob`);
    total += blob.size;
    if (total > MAX_DOWNLOAD_BYTES) throw new RpcFailure(RpcCode.Denied, 'download too large');
    files.push({ name: fileName(String(res.uri ?? item.uri ?? ''), `download-${i + 1}`), blob });
  }
  const names = files.map((f) => `${f.name} (${f.blob.size} bytes)`).join('\n');
  if (!confirm(`The app wants to download ${files.length} file(s):\n${names}\n\nSave?`)) return { isError: true };
  for (const f of files) {
    const url = URL.createObjectURL(f.blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = f.name;
    a.rel = 'noopener';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return {};
}

function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Wait (bounded) for the page's event stream to be open, so a `result` event cannot slip past. */
async function ensureStream(): Promise<void> {
  connectEvents();
  if (streamOpen) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, STREAM_WAIT_MS);
    const off = on('stream', (e) => {
      if (e.state === 'open') done();
    });
    function done(): void {
      clearTimeout(timer);
      off();
      resolve();
    }
  });
}

/** The `result` event for one call (the api store catches it even when it arrives before POST /call answers). */
function waitForResult(callId: string, signal: AbortSignal): Promise<CallState> {
  return new Promise((resolve, reject) => {
    const finish = (fn: () => void): void => {
      clearTimeout(timer);
      off();
      signal.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = (): void => finish(() => reject(new RpcFailure(RpcCode.Denied, 'the app panel was closed')));
    const timer = setTimeout(
      () => finish(() => reject(new RpcFailure(RpcCode.Denied, `no result in ${CALL_TIMEOUT_MS / 1000} s`))),
      CALL_TIMEOUT_MS,
    );
    const off = on('result', (e) => {
      if (e.callId !== callId) return;
      const s: CallState = callState(callId) ?? { done: true };
      if (e.result !== undefined) s.result = e.result;
      if (e.error !== undefined) s.error = e.error;
      finish(() => resolve(s));
    });
    signal.addEventListener('abort', onAbort);
    const now = callState(callId);
    if (now?.done) finish(() => resolve(now));
  });
}
