// The API's HTTP helpers: JSON bodies in (bounded) and out, errors with a status and a code, argument checks.

/** The largest request body the API reads. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request error as the API shows it. */
export function errorJson(/** @type {unknown} */ error) {
  if (error instanceof Error) {
    const code = /** @type {{ code?: unknown }} */ (error).code;
    return { code: typeof code === 'string' ? code : error.name || 'ERROR', message: error.message };
  }
  return { code: 'ERROR', message: String(error) };
}

/** An error the API answers with a status of its own. */
export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** @param {import('node:http').IncomingMessage} req */
export async function readJson(req) {
  const type = String(req.headers['content-type'] ?? '');
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, 'too_large', `the body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  // A cross-site form can post text/plain without a preflight; the token already stops it, this too.
  if (!/^application\/json\b/i.test(type)) throw new ApiError(415, 'bad_content_type', 'send application/json');
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'bad_json', 'the body is not JSON');
  }
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} value */
export function sendJson(res, status, value) {
  const text = JSON.stringify(value ?? null);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(text);
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {string} code @param {string} message */
export function sendError(res, status, code, message) {
  sendJson(res, status, { error: { code, message } });
}

/** @param {unknown} ok @param {string} message @returns {asserts ok} */
export function need(ok, message) {
  if (!ok) throw new ApiError(400, 'bad_request', message);
}
