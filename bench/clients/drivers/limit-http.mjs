// The limit's Streamable HTTP: undici Pool.dispatch with a bare handler, a hand split of SSE, the session echoed.
import { Pool } from 'undici';

const JSON_OPEN = 123; // '{': a JSON answer (the --json server); anything else is an event stream

/**
 * One exchange's handler, on undici's own (legacy) handler interface: no Readable, no headers object, no
 * consumer. The body's chunks are kept as they come (almost always one) and decoded once at the end: the
 * bench's server ends each POST's stream after its answer, so waiting for the end costs nothing.
 */
class Exchange {
  constructor(rpc, id, resolve, reject) {
    this.rpc = rpc;
    this.id = id; // the JSON-RPC id to find in the body, or 0 for a notification / DELETE
    this.resolve = resolve;
    this.reject = reject;
    this.status = 0;
    this.chunk = undefined; // the first chunk, alone in the usual case
    this.chunks = undefined; // all chunks, once there are two
  }
  onConnect() {}
  onHeaders(status, rawHeaders) {
    this.status = status;
    // The session id is read once, from the initialize answer; no other answer's headers are looked at.
    if (this.rpc.session === undefined)
      for (let i = 0; i < rawHeaders.length; i += 2)
        if (rawHeaders[i].toString('latin1').toLowerCase() === 'mcp-session-id')
          this.rpc.session = rawHeaders[i + 1].toString('latin1');
    return true;
  }
  onData(chunk) {
    if (this.chunk === undefined) this.chunk = chunk;
    else if (this.chunks === undefined) this.chunks = [this.chunk, chunk];
    else this.chunks.push(chunk);
    return true;
  }
  onComplete() {
    if (this.status === 202 || this.id === 0) return this.resolve(undefined);
    // The chunks dropped as soon as they are joined, the joined bytes as soon as they are decoded: on a
    // 16 MiB answer each copy let go early is one less in the peak RSS.
    let body = this.chunks !== undefined ? Buffer.concat(this.chunks) : this.chunk;
    this.chunk = this.chunks = undefined;
    const text = body === undefined ? '' : body.toString('utf8');
    body = undefined;
    if (this.status !== 200) return this.reject(new Error(`HTTP ${this.status}: ${text.slice(0, 200)}`));
    const message = text.charCodeAt(0) === JSON_OPEN ? JSON.parse(text) : answerIn(text, this.id);
    if (message === undefined) return this.reject(new Error('no answer in the event stream'));
    if (message.error !== undefined)
      return this.reject(new Error(`JSON-RPC error ${message.error.code}: ${message.error.message}`));
    this.resolve(message.result);
  }
  onError(error) {
    this.reject(error);
  }
}

/**
 * The message with this id in an event stream: events split at a blank line, each event's `data:` lines
 * joined, parsed, kept if its id matches. Server notifications and requests (no matching id) are skipped:
 * the bench's scenarios send none that need an answer.
 */
function answerIn(text, id) {
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n\n', start);
    if (end === -1) end = text.length;
    let data;
    for (let at = text.indexOf('data:', start); at !== -1 && at < end; at = text.indexOf('data:', at + 5)) {
      if (at !== start && text.charCodeAt(at - 1) !== 10) continue; // 'data:' inside a line, not a field
      let from = at + 5;
      if (text.charCodeAt(from) === 32) from++; // one optional space after the colon
      const eol = text.indexOf('\n', from);
      const value = text.slice(from, eol === -1 || eol > end ? end : eol);
      data = data === undefined ? value : `${data}\n${value}`;
    }
    if (data !== undefined) {
      const message = JSON.parse(data);
      if (message.id === id) return message;
    }
    start = end + 2;
  }
  return undefined;
}

/** A JSON-RPC client over Streamable HTTP (session mode) at `url`, its requests POSTed through one Pool. */
export function http({ url }) {
  const { origin, pathname, search } = new URL(url);
  const pool = new Pool(origin);
  const rpc = { session: undefined };
  let nextId = 1;
  // One options object and one flat headers object for every POST: undici reads both while dispatch() runs,
  // so the next call may overwrite the body. The headers are replaced once, when initialize sets the session.
  const post = {
    path: pathname + search,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '',
  };
  const send = (opts, id) =>
    new Promise((resolve, reject) => {
      pool.dispatch(opts, new Exchange(rpc, id, resolve, reject));
    });
  return {
    request(method, params) {
      const id = nextId++;
      post.body = `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(params)}}`;
      return send(post, id);
    },
    notify(json) {
      post.body = json;
      return send(post, 0);
    },
    /** After initialize: every later request carries the session and the negotiated protocol version. */
    initialized(result) {
      post.headers = { ...post.headers, 'mcp-protocol-version': result.protocolVersion };
      if (rpc.session !== undefined) post.headers['mcp-session-id'] = rpc.session;
    },
    async close() {
      if (rpc.session !== undefined) await send({ path: post.path, method: 'DELETE', headers: post.headers }, 0);
      await pool.close();
    },
  };
}
