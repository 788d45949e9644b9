// chart-app.mjs: the demo server's MCP App (ui://demo/chart) — a self-contained HTML page, no network.
//
// It speaks the MCP Apps postMessage dialect (SEP-1865 "MCP Apps", stable 2026-01-26, the extension
// io.modelcontextprotocol/ui; the host side is described in the apps extension docs):
// - "Transport Layer": JSON-RPC 2.0 over window.parent.postMessage.
// - "Lifecycle" §2: the View sends `ui/initialize` {protocolVersion, appInfo, appCapabilities}, gets
//   McpUiInitializeResult {protocolVersion, hostInfo, hostCapabilities, hostContext?}, then sends
//   `ui/notifications/initialized`.
// - "Notifications (Host → View)": `ui/notifications/tool-input` {arguments} and
//   `ui/notifications/tool-result` (a CallToolResult) — the bars are drawn from either.
// - "Standard MCP Messages" / "Interactive Phase": the View calls a server tool through the host with
//   `tools/call` (here `add` of the first two values) and shows the answer.
// - `ui/resource-teardown` (a request) and `ping` are answered with `{}`; `ui/notifications/size-changed`
//   reports the page's size.

export const CHART_URI = 'ui://demo/chart';
// "UI Resource Format": mimeType MUST be text/html;profile=mcp-app.
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
export const APPS_PROTOCOL_VERSION = '2026-01-26';

export const CHART_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mcpc demo chart</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 12px; color: #1f2937; }
  #chart { display: flex; align-items: flex-end; gap: 4px; height: 140px; border-bottom: 1px solid #9ca3af; padding: 4px 0; }
  .bar { flex: 1; background: #2563eb; min-width: 8px; position: relative; }
  .bar span { position: absolute; top: -16px; left: 0; right: 0; text-align: center; font-size: 11px; }
  #row { margin-top: 10px; display: flex; gap: 8px; align-items: center; }
  #status { color: #6b7280; font-size: 12px; margin-top: 6px; }
</style>
</head>
<body>
<div id="chart" data-testid="chart"></div>
<div id="row">
  <button id="add" data-testid="chart-add" disabled>Add the first two values (tools/call add)</button>
  <output id="answer" data-testid="chart-answer"></output>
</div>
<div id="status" data-testid="chart-status">connecting to the host…</div>
<script>
(function () {
  "use strict";
  var PROTOCOL_VERSION = "${APPS_PROTOCOL_VERSION}";
  var nextId = 1;
  var pending = {};
  var values = [];
  var chart = document.getElementById("chart");
  var button = document.getElementById("add");
  var answer = document.getElementById("answer");
  var status = document.getElementById("status");

  function post(message) {
    message.jsonrpc = "2.0";
    window.parent.postMessage(message, "*");
  }
  function request(method, params) {
    var id = nextId++;
    post({ id: id, method: method, params: params });
    return new Promise(function (resolve, reject) {
      pending[id] = { resolve: resolve, reject: reject };
    });
  }
  function draw(list) {
    if (!Array.isArray(list)) return;
    values = list.filter(function (v) { return typeof v === "number" && isFinite(v); }).slice(0, 100);
    var max = Math.max.apply(null, values.map(Math.abs).concat([1]));
    chart.textContent = "";
    values.forEach(function (v) {
      var bar = document.createElement("div");
      bar.className = "bar";
      bar.style.height = Math.max(2, Math.round((Math.abs(v) / max) * 120)) + "px";
      var label = document.createElement("span");
      label.textContent = String(v);
      bar.appendChild(label);
      chart.appendChild(bar);
    });
    button.disabled = values.length < 2;
    reportSize();
  }
  function reportSize() {
    post({ method: "ui/notifications/size-changed", params: { width: document.body.scrollWidth, height: document.body.scrollHeight + 24 } });
  }

  window.addEventListener("message", function (event) {
    if (event.source !== window.parent) return;
    var msg = event.data;
    if (!msg || msg.jsonrpc !== "2.0") return;
    if (msg.id !== undefined && msg.method === undefined) {
      var waiter = pending[msg.id];
      if (!waiter) return;
      delete pending[msg.id];
      if (msg.error) waiter.reject(new Error(msg.error.message || "error"));
      else waiter.resolve(msg.result);
      return;
    }
    if (msg.method === "ui/notifications/tool-input") {
      draw(msg.params && msg.params.arguments && msg.params.arguments.values);
    } else if (msg.method === "ui/notifications/tool-result") {
      var sc = msg.params && msg.params.structuredContent;
      if (sc && Array.isArray(sc.values)) draw(sc.values);
      status.textContent = "tool result received";
    } else if (msg.method === "ui/notifications/tool-cancelled") {
      status.textContent = "tool call cancelled";
    } else if (msg.id !== undefined && (msg.method === "ui/resource-teardown" || msg.method === "ping")) {
      post({ id: msg.id, result: {} });
    } else if (msg.id !== undefined) {
      post({ id: msg.id, error: { code: -32601, message: "Method not found" } });
    }
  });

  button.addEventListener("click", function () {
    if (values.length < 2) return;
    var a = values[0], b = values[1];
    answer.textContent = "…";
    request("tools/call", { name: "add", arguments: { a: a, b: b } }).then(function (result) {
      var sum = result && result.structuredContent && result.structuredContent.sum;
      if (sum === undefined && result && result.content && result.content[0]) sum = result.content[0].text;
      answer.textContent = a + " + " + b + " = " + sum;
    }, function (error) {
      answer.textContent = "error: " + error.message;
    });
  });

  request("ui/initialize", {
    protocolVersion: PROTOCOL_VERSION,
    appInfo: { name: "mcpc-demo-chart", version: "1.0.0" },
    appCapabilities: {}
  }).then(function (result) {
    var host = result && result.hostInfo ? result.hostInfo.name : "host";
    status.textContent = "connected to " + host;
    post({ method: "ui/notifications/initialized", params: {} });
    reportSize();
  }, function (error) {
    status.textContent = "ui/initialize failed: " + error.message;
  });
})();
</script>
</body>
</html>
`;
