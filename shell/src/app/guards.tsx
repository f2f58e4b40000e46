import { useEffect, type ReactNode } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { observer } from "mobx-react-lite";
import { useRoot } from "./context";
import { accessForPath, isMasterAdmin, masterOnlyPath, tierForPath } from "./gating";
import { tierAtLeast } from "./root";

/** Main-area routes: without a session, to /login (the wanted path goes along as ?redirect= for after login). */
export const RequireAuth = observer(function RequireAuth({ children }: { children: ReactNode }) {
  const root = useRoot();
  const loc = useLocation();
  if (!root.session.loggedIn) {
    const wanted = loc.pathname !== "/home" ? `?redirect=${encodeURIComponent(loc.pathname)}` : "";
    return <Navigate to={`/login${wanted}`} replace />;
  }
  return <>{children}</>;
});

function Refuse({ notice }: { notice: () => void }) {
  useEffect(() => {
    notice();
  }, []);
  return <Navigate to="/home" replace />;
}

/**
 * Profile and licence gates of the current path (spec §6): a tier above the tenant's shows the
 * notice naming the tier and returns to /home; /configuracoes for a non-admin shows the
 * no-permission notice and goes to the dashboard, and so does a master-only settings child
 * (global settings) for anyone but the master admin.
 */
export const PathGate = observer(function PathGate({ children }: { children: ReactNode }) {
  const root = useRoot();
  const { pathname } = useLocation();
  const tier = tierForPath(pathname, root.plugins);
  if (tier && !tierAtLeast(root.session.tier, tier)) return <Refuse key={pathname} notice={() => root.licenceNotice(tier)} />;
  const access = accessForPath(pathname);
  if ((access && !root.can(access)) || (masterOnlyPath(pathname) && !isMasterAdmin(root))) {
    return (
      <Refuse
        key={pathname}
        notice={() => root.ui.notify({ kind: "error", title: root.t("common.noPermission.title"), detail: root.t("common.noPermission.detail") })}
      />
    );
  }
  return <>{children}</>;
});
