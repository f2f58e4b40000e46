import type { ComponentType } from "react";

export type PageLoader = () => Promise<{ default: ComponentType }>;

/**
 * The public pages (spec §2), by hash path. The router (App.tsx) serves them, and so does
 * <PublicApp/> when a page load starts on one of them without a session: then neither
 * react-router nor the UI kit is fetched (bundle budget of /login, test/bundle-budget). So
 * these pages use no router hooks: they read the hash through the helpers below and move
 * with `root.navigate`.
 */
export const PUBLIC_PAGES: Record<string, PageLoader> = {
  "/login": () => import("../pages/login/LoginPage"),
  "/redefining": () => import("../pages/login/ResetPage"),
  "/terms-of-use": () => import("../pages/login/TermsPage"),
  "/lgpd-consent": () => import("../pages/login/ConsentPage"),
};

/** The path of a hash location: "#/login?redirect=%2Fhome" → "/login". */
export function hashPath(hash: string = window.location.hash): string {
  const p = hash.replace(/^#/, "").split("?")[0] || "/";
  return p.startsWith("/") ? p : `/${p}`;
}

/** The query of a hash location: "#/redefining?token=abc" → token=abc. */
export function hashQuery(hash: string = window.location.hash): URLSearchParams {
  const i = hash.indexOf("?");
  return new URLSearchParams(i >= 0 ? hash.slice(i + 1) : "");
}

export function isPublicPath(path: string): boolean {
  return Object.prototype.hasOwnProperty.call(PUBLIC_PAGES, path);
}
