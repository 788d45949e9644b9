// A module resolve hook for lib/module-check.mjs: reports every specifier resolved (or not found) to the main thread.
let port;

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, next) {
  try {
    const resolved = await next(specifier, context);
    port.postMessage({ specifier, url: resolved.url });
    return resolved;
  } catch (error) {
    port.postMessage({ specifier, error: error?.code ?? String(error) });
    throw error;
  }
}
