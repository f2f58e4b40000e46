/**
 * Where the screens draw what plugins put in their slots (runtime.addSettingsSection,
 * addDashboardBlock, registerContactPanelSection, registerQueueFormSection,
 * registerConnectionFormSection, registerComposerAction, registerComposerReplacement,
 * registerClosingDialog). Each host reads the registry, so a plugin switched on or off shows
 * or leaves at once. A slot's component gets the runtime of the plugin that registered it.
 */
import { lazy, Suspense, useMemo, type ComponentType } from "react";
import { observer } from "mobx-react-lite";
import { Card, Collapse } from "antd";
import { useLocation } from "react-router-dom";
import type { ShellRuntime, UiLabel, UiProfile, UiTicket } from "@openatende/plugin-sdk/ui";
import { useRoot } from "../app/context";
import NotFound from "../app/NotFound";
import type { RootStore } from "../app/root";
import type { PluginSlots } from "./registry";
import { runtimeFor } from "./remotes";

/** A label in the current language (pt-BR when the plugin gave none in it). */
export function labelOf(label: UiLabel, locale: string): string {
  return (label as Record<string, string | undefined>)[locale] ?? label["pt-BR"];
}

/** The runtime of the plugin that owns a slot entry (the same object shape register() got). */
export function ownerRuntime(root: RootStore, pluginId: string): ShellRuntime | null {
  const p = root.plugins.enabled.find((e) => e.id === pluginId);
  return p ? runtimeFor(root, p) : null;
}

/** The entries of a slot the current user may see (their `access`), of plugins still enabled. */
export function useSlot<K extends keyof PluginSlots>(slot: K): PluginSlots[K] {
  const root = useRoot();
  const enabled = new Set(root.plugins.enabled.map((p) => p.id));
  return root.plugins.slots[slot].filter((e) => enabled.has(e.pluginId) && root.can((e as { access?: UiProfile }).access)) as PluginSlots[K];
}

const lazyCache = new Map<string, ComponentType>();
function lazyOnce(key: string, load: () => Promise<{ default: ComponentType }>): ComponentType {
  if (!lazyCache.has(key)) lazyCache.set(key, lazy(load));
  return lazyCache.get(key)!;
}

/** /configuracoes/<path> of a plugin's settings section (the route of any child the core does not have). */
export const PluginSettingsSection = observer(function PluginSettingsSection() {
  const root = useRoot();
  const { pathname } = useLocation();
  const child = pathname.replace(/^\/configuracoes\/?/, "").split("/")[0];
  const sections = useSlot("settingsSections");
  const s = sections.find((x) => x.path === child);
  const Page = useMemo(() => (s ? lazyOnce(`${s.pluginId}:settings:${s.path}`, s.load) : null), [s]);
  if (!Page) return root.plugins.loaded ? <NotFound /> : <div className="oa-page-loading">{root.t("common.loading")}</div>;
  return (
    <Suspense fallback={<div className="oa-page-loading">{root.t("common.loading")}</div>}>
      <div data-testid={`plugin-settings-${s!.path}`}>
        <Page />
      </div>
    </Suspense>
  );
});

/** The dashboard's plugin blocks (/home). */
export const DashboardBlocks = observer(function DashboardBlocks() {
  const root = useRoot();
  const blocks = useSlot("dashboard");
  if (!blocks.length) return null;
  return (
    <div className="oa-plugin-blocks" data-testid="dashboard-plugin-blocks">
      {blocks.map((b) => {
        const rt = ownerRuntime(root, b.pluginId);
        const C = b.component;
        return rt ? (
          <Card key={`${b.pluginId}:${b.key}`} title={labelOf(b.title, root.session.locale)} data-testid={`dashboard-block-${b.pluginId}-${b.key}`} style={{ marginTop: 16 }}>
            <C runtime={rt} />
          </Card>
        ) : null;
      })}
    </div>
  );
});

/** The contact panel's plugin sections, each a collapsible part under the core's. */
export const ContactPanelSections = observer(function ContactPanelSections({ contactId, ticket }: { contactId: number; ticket?: UiTicket }) {
  const root = useRoot();
  const sections = useSlot("contactPanel");
  if (!sections.length) return null;
  return (
    <Collapse
      ghost
      size="small"
      data-testid="contact-panel-plugin-sections"
      // Open at first: a section is there to be seen; the agent may fold it.
      defaultActiveKey={sections.map((s) => `${s.pluginId}:${s.key}`)}
      items={sections.flatMap((s) => {
        const rt = ownerRuntime(root, s.pluginId);
        const C = s.component;
        return rt ? [{ key: `${s.pluginId}:${s.key}`, label: <span data-testid={`contact-panel-section-${s.pluginId}-${s.key}`}>{labelOf(s.label, root.session.locale)}</span>, children: <C runtime={rt} contactId={contactId} ticket={ticket} /> }] : [];
      })}
    />
  );
});
