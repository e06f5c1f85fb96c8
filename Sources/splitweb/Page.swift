/// The one page splitweb serves: no external assets. It opens a WebSocket with the page's own
/// query (token, scene, device), sends its viewport size first and on every resize, draws
/// each layout it is sent (SplitRender's SVG, fitted to the viewport), and sends the intent
/// of any clicked element that carries `data-intent`. Keys: Escape or Backspace = back,
/// d = display-mode button, 1-9 = select tab. The body's data attributes (revision,
/// collapsed, connected, width, height) expose the state to scripts and tests.
enum Page {
    static let html = #"""
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>splitweb</title>
        <style>
        html, body { margin: 0; padding: 0; height: 100%; overflow: hidden; background: #fafafa; font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; }
        #picture { position: absolute; inset: 0; }
        #picture svg { width: 100vw; height: 100vh; display: block; }
        #status { position: fixed; right: 8px; bottom: 8px; font-size: 12px; padding: 2px 8px; border-radius: 4px; background: #eef; color: #334; }
        body[data-connected="false"] #status { background: #fde8e8; color: #b42318; }
        </style></head>
        <body data-connected="false" data-revision="" data-collapsed="">
        <div id="picture"></div>
        <div id="status">connecting…</div>
        <script>
        "use strict";
        const params = new URLSearchParams(location.search);
        const body = document.body, statusLine = document.getElementById("status");
        let socket = null, resizeTimer = null;

        function size() { return { width: window.innerWidth, height: window.innerHeight }; }
        function send(message) { if (socket && socket.readyState === 1) socket.send(JSON.stringify(message)); }
        function setStatus(text, connected) { statusLine.textContent = text; body.dataset.connected = connected ? "true" : "false"; }

        function connect() {
          const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws" + location.search;
          socket = new WebSocket(url);
          socket.onopen = () => {
            const hello = Object.assign({ type: "hello" }, size());
            if (params.get("config")) { try { hello.config = JSON.parse(params.get("config")); } catch (e) {} }
            socket.send(JSON.stringify(hello));
          };
          socket.onmessage = (event) => {
            const message = JSON.parse(event.data);
            if (message.type === "layout") {
              document.getElementById("picture").innerHTML = message.svg;
              body.dataset.revision = String(message.revision);
              body.dataset.collapsed = String(message.collapsed);
              body.dataset.width = String(message.width);
              body.dataset.height = String(message.height);
              body.dataset.displayMode = message.displayMode || "";
              setStatus("revision " + message.revision + (message.collapsed ? " · collapsed" : " · " + message.displayMode), true);
            } else if (message.type === "status") {
              setStatus(message.deleted ? "scene deleted" : (message.connected ? "connected" : "splitd unreachable, reconnecting…"), message.connected);
            } else if (message.type === "error") {
              statusLine.textContent = message.code + ": " + message.message;
              body.dataset.lastError = message.code;
            }
          };
          socket.onclose = () => { setStatus("splitweb unreachable, reconnecting…", false); setTimeout(connect, 500); };
        }

        window.addEventListener("resize", () => {
          clearTimeout(resizeTimer);
          resizeTimer = setTimeout(() => send(Object.assign({ type: "resize" }, size())), 40);
        });
        document.addEventListener("click", (event) => {
          const target = event.target.closest("[data-intent]");
          if (target) send({ type: "intent", intent: JSON.parse(target.getAttribute("data-intent")) });
        });
        document.addEventListener("keydown", (event) => {
          if (event.key === "Escape" || event.key === "Backspace") send({ type: "intent", intent: { kind: "back" } });
          else if (event.key === "d") send({ type: "intent", intent: { kind: "displayModeButton" } });
          else if (/^[1-9]$/.test(event.key)) send({ type: "intent", intent: { kind: "selectTab", index: Number(event.key) - 1 } });
        });
        connect();
        </script>
        </body></html>
        """#
}
