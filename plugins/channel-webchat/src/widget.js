/* OpenAtende web chat widget. Embed with:
 *   <script src="https://your-host/api/webchat/widget.js" data-token="CONNECTION_TOKEN" async></script>
 * No dependencies; talks to /api/webchat/<token>/… with fetch and a long poll. */
(function () {
  "use strict";
  var script = document.currentScript || document.querySelector("script[data-token]");
  if (!script) return;
  var token = script.getAttribute("data-token");
  var base = script.getAttribute("data-api") || new URL(script.src, location.href).origin + "/api";
  var root = base + "/webchat/" + encodeURIComponent(token);
  var storeKey = "oa-webchat:" + token;
  var state = { visitorId: null, after: 0, open: false, polling: false, config: {} };
  try {
    var saved = JSON.parse(localStorage.getItem(storeKey) || "null");
    if (saved && saved.visitorId) state.visitorId = saved.visitorId;
  } catch (e) {}

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text) e.textContent = text;
    return e;
  }
  function api(method, path, body) {
    return fetch(root + path, {
      method: method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    }).then(function (r) {
      return r.json().then(function (j) {
        if (!r.ok) throw j;
        return j;
      });
    });
  }

  var css =
    "#oa-webchat-button{position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%;border:0;cursor:pointer;color:#fff;font-size:24px;box-shadow:0 4px 12px rgba(0,0,0,.25);z-index:2147483000}" +
    "#oa-webchat-panel{position:fixed;right:20px;bottom:88px;width:340px;max-width:calc(100vw - 40px);height:460px;background:#fff;border-radius:12px;box-shadow:0 8px 28px rgba(0,0,0,.25);display:none;flex-direction:column;overflow:hidden;font:14px/1.4 system-ui,sans-serif;z-index:2147483000}" +
    "#oa-webchat-panel.oa-open{display:flex}" +
    "#oa-webchat-head{color:#fff;padding:12px 14px;font-weight:600}" +
    "#oa-webchat-log{flex:1;overflow-y:auto;padding:10px;background:#f5f6f8}" +
    ".oa-msg{max-width:80%;margin:4px 0;padding:8px 10px;border-radius:10px;white-space:pre-wrap;word-wrap:break-word}" +
    ".oa-out{margin-left:auto;background:#dcf8c6}.oa-in{margin-right:auto;background:#fff;border:1px solid #e3e3e3}" +
    ".oa-deleted{font-style:italic;color:#888}" +
    "#oa-webchat-form{display:flex;border-top:1px solid #e3e3e3}" +
    "#oa-webchat-input{flex:1;border:0;padding:12px;font:inherit;outline:none}" +
    "#oa-webchat-send{border:0;background:none;padding:0 14px;cursor:pointer;font-weight:600}" +
    "#oa-webchat-foot{font-size:11px;color:#888;text-align:center;padding:4px}";

  var byId = {};
  function render(msg) {
    var existing = byId[msg.id];
    if (existing) {
      if (msg.deleted) {
        existing.textContent = msg.deletedText;
        existing.className = existing.className + " oa-deleted";
      } else if (msg.body !== undefined) existing.firstChild.textContent = msg.body;
      if (msg.emoji) existing.setAttribute("data-reaction", msg.emoji), (existing.title = msg.emoji);
      return;
    }
    var m = el("div", { class: "oa-msg " + (msg.mine ? "oa-out" : "oa-in"), "data-id": msg.id });
    m.appendChild(document.createTextNode(msg.body || ""));
    byId[msg.id] = m;
    log.appendChild(m);
    log.scrollTop = log.scrollHeight;
  }

  function apply(item) {
    if (item.kind === "text") render({ id: item.id, body: item.body, mine: false });
    else if (item.kind === "edit") render({ id: item.targetId, body: item.body });
    else if (item.kind === "delete") render({ id: item.targetId, deleted: true, deletedText: state.config.deletedText || "Mensagem apagada" });
    else if (item.kind === "reaction") render({ id: item.targetId, emoji: item.emoji });
  }

  function ensureSession() {
    if (state.visitorId) return Promise.resolve(state.visitorId);
    return api("POST", "/session", {}).then(function (s) {
      state.visitorId = s.visitorId;
      try {
        localStorage.setItem(storeKey, JSON.stringify({ visitorId: s.visitorId }));
      } catch (e) {}
      return s.visitorId;
    });
  }

  function poll() {
    if (state.polling || !state.visitorId) return;
    state.polling = true;
    api("GET", "/messages?visitorId=" + encodeURIComponent(state.visitorId) + "&after=" + state.after + "&wait=25")
      .then(function (r) {
        (r.items || []).forEach(function (i) {
          state.after = Math.max(state.after, i.seq);
          apply(i);
        });
        state.polling = false;
        poll();
      })
      .catch(function () {
        state.polling = false;
        setTimeout(poll, 5000);
      });
  }

  function send(text) {
    var clientId = "w-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
    render({ id: clientId, body: text, mine: true });
    return ensureSession()
      .then(function (visitorId) {
        poll();
        return api("POST", "/messages", { visitorId: visitorId, body: text, clientMessageId: clientId });
      })
      .catch(function () {
        byId[clientId].className += " oa-failed";
      });
  }

  var style = el("style");
  style.textContent = css;
  var button = el("button", { id: "oa-webchat-button", type: "button", "aria-label": "Chat" });
  // An SVG, not an emoji: a site's visitors may have no emoji font.
  button.innerHTML =
    '<svg width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>';
  var panel = el("div", { id: "oa-webchat-panel", role: "dialog" });
  var head = el("div", { id: "oa-webchat-head" }, "");
  var log = el("div", { id: "oa-webchat-log", "aria-live": "polite" });
  var form = el("form", { id: "oa-webchat-form" });
  var input = el("input", { id: "oa-webchat-input", autocomplete: "off", maxlength: "4000" });
  var sendBtn = el("button", { id: "oa-webchat-send", type: "submit" }, "➤");
  var foot = el("div", { id: "oa-webchat-foot" }, "");
  form.appendChild(input);
  form.appendChild(sendBtn);
  panel.appendChild(head);
  panel.appendChild(log);
  panel.appendChild(form);
  panel.appendChild(foot);

  function toggle(open) {
    state.open = open === undefined ? !state.open : open;
    panel.className = state.open ? "oa-open" : "";
    if (state.open) input.focus();
  }
  button.addEventListener("click", function () {
    toggle();
  });
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var text = input.value.trim();
    if (!text) return;
    input.value = "";
    send(text);
  });

  api("GET", "/config")
    .then(function (cfg) {
      state.config = cfg;
      var color = cfg.mainColor || "#1f6feb";
      button.style.background = color;
      head.style.background = color;
      head.textContent = cfg.title || "Fale conosco";
      input.placeholder = cfg.placeholder || "Digite sua mensagem…";
      foot.textContent = cfg.footerText || "";
      document.head.appendChild(style);
      document.body.appendChild(button);
      document.body.appendChild(panel);
      if (cfg.offerHelp && cfg.helpMessage) render({ id: "help", body: cfg.helpMessage, mine: false });
      if (cfg.autoOpen) toggle(true);
      if (state.visitorId) poll();
    })
    .catch(function () {
      /* unknown or disabled token: no widget */
    });
})();
