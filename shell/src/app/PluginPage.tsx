import { lazy, Suspense, useMemo } from "react";
import { useLocation } from "react-router-dom";
import { observer } from "mobx-react-lite";
import { useRoot } from "./context";
import NotFound from "./NotFound";
import { routeMatches } from "../plugins/registry";

const cache = new Map<string, ReturnType<typeof lazy>>();

/** A route a plugin remote added (matched by path, `:name` segments by any one segment); not found while plugins load or when none matches. */
export const PluginPage = observer(function PluginPage() {
  const root = useRoot();
  const { pathname } = useLocation();
  // An exact path wins over a parametrised one ("campanhas/novo" before "campanhas/:id").
  const route = root.plugins.routes.find((r) => `/${r.path.replace(/^\/+/, "")}` === pathname) ?? root.plugins.routes.find((r) => r.path.includes(":") && routeMatches(r.path, pathname));
  const Page = useMemo(() => {
    if (!route) return null;
    const key = `${route.pluginId}:${route.path}`;
    if (!cache.has(key)) cache.set(key, lazy(route.load));
    return cache.get(key)!;
  }, [route]);
  if (!route) return root.plugins.loaded ? <NotFound /> : <div className="oa-page-loading">{root.t("common.loading")}</div>;
  if (!root.can(route.access)) return <NotFound />;
  return (
    <Suspense fallback={<div className="oa-page-loading">{root.t("common.loading")}</div>}>
      {Page ? <Page /> : null}
    </Suspense>
  );
});
