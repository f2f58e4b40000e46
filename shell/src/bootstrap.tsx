import { createRoot } from "react-dom/client";
import { RootStore } from "./app/root";
import { PublicApp } from "./app/PublicApp";
import { hashPath, isPublicPath } from "./app/public-routes";
import "./ui/base.css";

const root = new RootStore();
void root.loadFrontConfig();
void root.startSession();
// For browser tests and debugging: the stores of this page.
(window as unknown as { __openatende?: RootStore }).__openatende = root;

const view = createRoot(document.getElementById("root")!);

/**
 * Two ways in. Without a session every path leads to /login, and the public pages render
 * without the router, the UI kit or the socket (bundle budget of /login). The full app (the
 * router, the main layout) is fetched when the hash leaves the public pages, after login, or
 * at once for a page load with a stored session.
 */
let mainShown = false;
async function showMain() {
  if (mainShown) return;
  mainShown = true;
  window.removeEventListener("hashchange", onHash);
  let app: typeof import("./app/App");
  try {
    app = await import("./app/App");
  } catch {
    // A chunk that did not arrive (network, a new deployment). The module loader keeps it as
    // failed, so the next move reloads the page: the session is stored, the wanted page opens.
    root.ui.notify({ kind: "error", title: root.t("errors.chunk.title"), detail: root.t("errors.chunk.detail"), durationMs: 8000 });
    window.addEventListener("hashchange", () => window.location.reload(), { once: true });
    return;
  }
  const { App, createRouter } = app;
  const router = createRouter();
  root.navigate = (path) => void router.navigate(path);
  view.render(<App root={root} router={router} />);
}
function onHash() {
  if (!isPublicPath(hashPath())) void showMain();
}

void root.ready.then(() => {
  const path = hashPath();
  if (!root.session.loggedIn && !isPublicPath(path)) {
    const wanted = path !== "/" && path !== "/home" ? `?redirect=${encodeURIComponent(path)}` : "";
    window.location.replace(`#/login${wanted}`);
  }
  if (isPublicPath(hashPath())) {
    window.addEventListener("hashchange", onHash);
    view.render(<PublicApp root={root} />);
  } else void showMain();
});
