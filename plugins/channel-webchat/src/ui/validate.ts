import type { ConnectionSettings } from "@openatende/plugin-sdk/ui";

const MAX: Record<string, number> = { title: 80, footerText: 200, helpMessage: 500, iconUrl: 500, notificationSoundUrl: 500 };

/** The same rules as the manifest's settings schema, checked before the form is sent. */
export function validateWebchat(v: ConnectionSettings, t: (k: string, vars?: Record<string, unknown>) => string): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [k, max] of Object.entries(MAX)) {
    const s = v[k];
    if (typeof s === "string" && s.length > max) errors[k] = t("errMax", { max });
  }
  if (typeof v.mainColor === "string" && v.mainColor && !/^#[0-9a-fA-F]{6}$/.test(v.mainColor)) errors.mainColor = t("errColor");
  for (const k of ["iconUrl", "notificationSoundUrl"]) {
    const s = v[k];
    if (typeof s === "string" && s && !errors[k] && !/^https?:\/\/[^\s]+$/i.test(s)) errors[k] = t("errUrl");
  }
  return errors;
}
