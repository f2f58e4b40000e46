import type { RootStore } from "../../app/root";
import { hashQuery, isPublicPath } from "../../app/public-routes";

/** A path of the main area to go to after login: internal, not public; /home otherwise. */
export function safeRedirect(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || /[\s\\]/.test(raw)) return "/home";
  const path = raw.split("?")[0];
  return isPublicPath(path) ? "/home" : raw;
}

/** The ?redirect= of the current hash, made safe. */
export function redirectParam(): string {
  return safeRedirect(hashQuery().get("redirect"));
}

/**
 * Where a fresh session goes next (spec §4 "Terms and consent"): a tenant admin answers the
 * terms of use while the tenant has not accepted them; every user answers the privacy
 * consent until they have given it; then the wanted page.
 */
export function nextStep(root: RootStore, target: string): string {
  const s = root.session;
  const q = `?redirect=${encodeURIComponent(target)}`;
  if (s.isAdmin && s.tenant && !s.tenant.termsAccepted) return `/terms-of-use${q}`;
  if (s.usuario && s.usuario.lgpdAccepted !== true) return `/lgpd-consent${q}`;
  return target;
}

/** The session ended by a refusal (terms or consent): the browser's session goes too. */
export async function endRefused(root: RootStore, title: string, detail: string) {
  await root.logout();
  root.ui.notify({ kind: "warning", title, detail, durationMs: 8000 });
}
