/**
 * Plugin sections of the queue form and the connection form (registerQueueFormSection,
 * registerConnectionFormSection): each section's values are the plugin's own; the form loads
 * them for an existing object (`load(id)`), and saves them after the core saved the object
 * (`save(id, value)`), so a chatbot plugin keeps its settings of a queue in its own data.
 */
import { useEffect, useState } from "react";
import { Divider, Spin } from "antd";
import type { FormSectionDefinition } from "@openatende/plugin-sdk/ui";
import { useRoot } from "../app/context";
import type { Owned } from "./registry";
import { labelOf, ownerRuntime, useSlot } from "./slots";

type Section = Owned<FormSectionDefinition>;
const keyOf = (s: Section) => `${s.pluginId}:${s.key}`;

/** The sections for a form (queue, or connection of `type`), their drawn parts, and `saveAll` to call once the core saved the object. */
export function useFormSections(slot: "queueForm" | "connectionForm", id: number | undefined, type?: string) {
  const root = useRoot();
  const sections = useSlot(slot).filter((s) => !s.types || !type || s.types.includes(type));
  const [values, setValues] = useState<Record<string, Record<string, unknown>>>({});
  const ids = sections.map(keyOf).join(",");

  useEffect(() => {
    setValues({});
    if (id === undefined) return;
    let live = true;
    for (const s of sections) {
      const rt = ownerRuntime(root, s.pluginId);
      if (!rt || !s.load) continue;
      s.load(id, rt)
        .then((v) => live && setValues((all) => ({ ...all, [keyOf(s)]: v ?? {} })))
        .catch((e) => {
          // Shown, and the section opens empty rather than waiting for ever.
          root.notifyError(e);
          if (live) setValues((all) => ({ ...all, [keyOf(s)]: {} }));
        });
    }
    return () => {
      live = false;
    };
    // The sections' identity is their keys.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, ids]);

  const parts = sections.map((s) => {
    const rt = ownerRuntime(root, s.pluginId);
    const C = s.component;
    if (!rt) return null;
    // A section whose values are loading is not drawn yet: a choice made before they arrived would be
    // overwritten by them (and then not saved).
    const loading = id !== undefined && !!s.load && values[keyOf(s)] === undefined;
    return (
      <div key={keyOf(s)} data-testid={`form-section-${s.pluginId}-${s.key}`}>
        <Divider titlePlacement="start" plain>
          {labelOf(s.label, root.session.locale)}
        </Divider>
        {loading ? (
          <span data-testid="form-section-loading">
            <Spin size="small" />
          </span>
        ) : (
          <C runtime={rt} id={id} value={values[keyOf(s)] ?? {}} onChange={(v) => setValues((all) => ({ ...all, [keyOf(s)]: v }))} />
        )}
      </div>
    );
  });

  async function saveAll(savedId: number) {
    for (const s of sections) {
      const rt = ownerRuntime(root, s.pluginId);
      if (rt && s.save) await s.save(savedId, values[keyOf(s)] ?? {}, rt);
    }
  }

  return { parts, saveAll, count: sections.length };
}
