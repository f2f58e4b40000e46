import { Component, lazy, Suspense, useEffect, useMemo, useState, type ComponentType, type ReactNode } from "react";
import { RootContext } from "./context";
import { Notifier } from "./Notifier";
import { hashPath, PUBLIC_PAGES } from "./public-routes";
import type { RootStore } from "./root";

const pages = new Map<string, ComponentType>();
function pageFor(path: string): ComponentType | null {
  const load = PUBLIC_PAGES[path];
  if (!load) return null;
  if (!pages.has(path)) pages.set(path, lazy(load));
  return pages.get(path)!;
}

/** A page whose code did not arrive: the catalogue's message and a reload, not a blank screen. */
class ChunkBoundary extends Component<{ root: RootStore; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    const { root } = this.props;
    if (!this.state.failed) return this.props.children;
    return (
      <div className="oa-notfound" role="alert">
        <h1>{root.t("errors.chunk.title")}</h1>
        <p>{root.t("errors.chunk.detail")}</p>
        <button type="button" className="oa-button" onClick={() => window.location.reload()}>
          {root.t("login.reload")}
        </button>
      </div>
    );
  }
}

/**
 * The public pages without the router: what a page load that starts on /login (or another
 * public page) renders. bootstrap.tsx swaps it for the full app when the hash leaves the
 * public pages (after login).
 */
export function PublicApp({ root }: { root: RootStore }) {
  const [path, setPath] = useState(() => hashPath());
  useEffect(() => {
    const onHash = () => setPath(hashPath());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const Page = useMemo(() => pageFor(path), [path]);
  return (
    <RootContext.Provider value={root}>
      <ChunkBoundary root={root} key={path}>
        <Suspense fallback={<div className="oa-page-loading" aria-busy="true" />}>{Page ? <Page /> : null}</Suspense>
      </ChunkBoundary>
      <Notifier />
    </RootContext.Provider>
  );
}
