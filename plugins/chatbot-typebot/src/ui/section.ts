import type { FormSectionDefinition } from "@openatende/plugin-sdk/ui";
import { getConnection, saveConnection } from "./api";
import { ConnectionSection } from "./ConnectionSection";
import { labels } from "./texts";

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/**
 * The Typebot section of the connection form (spec §3: enable, flow name, restart keyword,
 * invalid message): loaded for an existing connection, saved once the core saved it. Nothing is
 * written when the section was never loaded nor touched, so a failed load cannot switch it off.
 */
export const typebotConnectionSection: FormSectionDefinition = {
  key: "typebot",
  label: labels("sectionLabel"),
  component: ConnectionSection,
  async load(id, runtime) {
    const c = await getConnection(runtime.api, id);
    return { enabled: c.enabled, publicId: c.publicId, restartKeyword: c.restartKeyword, invalidMessage: c.invalidMessage };
  },
  async save(id, value, runtime) {
    if (!("enabled" in value)) return;
    await saveConnection(runtime.api, {
      connectionId: id,
      enabled: value.enabled === true,
      publicId: str(value.publicId),
      restartKeyword: str(value.restartKeyword),
      invalidMessage: str(value.invalidMessage) || null,
    });
  },
};
