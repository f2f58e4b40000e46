import { PLUGINS_PAGE } from "../../plugins/registry";
import { useCallback, useEffect, useState, type HTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { Card, Empty, Grid, Segmented, Switch, Table, Tag, Tooltip, Typography } from "antd";
import { AppstoreOutlined, LockOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { SectionHeader } from "../../ui/SectionHeader";
import { localName, moduleBlock } from "../marketplace/logic";
import { KindIcon, TierTag, useKindLabel } from "../marketplace/shared";
import { KINDS, type TenantModule } from "../marketplace/types";
import "../../ui/kit.css";
import "../marketplace/marketplace.css";

/**
 * /modulos (a tenant's admins): the platform's plugins with the tenant's own switch
 * (PUT /plugins/:id/enabled). The switch cannot be turned on for what the platform did not
 * make available to the tenant, nor above the tenant's plan; the reason is said next to it.
 * After a change the shell loads the enabled plugins again, so menus and forms follow.
 */
export default function ModulosPage() {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const kindLabel = useKindLabel();
  const [rows, setRows] = useState<TenantModule[]>([]);
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState<string | null>(null);
  /** The kind shown ("all": every kind), one segment per kind the platform has. */
  const [kind, setKind] = useState<string>("all");
  const kindsPresent = KINDS.filter((k) => rows.some((r) => r.kind === k));
  const shown = kind === "all" ? rows : rows.filter((r) => r.kind === kind);

  const narrow = Grid.useBreakpoint().md === false;

  /** Why the admin cannot switch a module on, in words (null: they can). */
  const whyOf = (p: TenantModule): string | null => {
    const block = moduleBlock(p);
    if (!block) return null;
    return block.reason === "notAllowed" ? t("marketplace.modules.notAllowed") : t("marketplace.modules.tierRequired", { tier: block.tier, current: root.session.tier });
  };
  const whyNote = (p: TenantModule) => (
    <Typography.Text type="secondary" className="oa-mkt-module-why" data-testid={`module-why-${p.id}`}>
      <LockOutlined /> {whyOf(p)}
    </Typography.Text>
  );

  const load = useCallback(async () => {
    try {
      setRows(await root.api.get<TenantModule[]>("/plugins"));
    } catch {
      /* shown by the client */
    } finally {
      setLoading(false);
    }
  }, [root]);
  useEffect(() => void load(), [load]);

  const toggle = async (p: TenantModule, enabled: boolean) => {
    setSaving(p.id);
    try {
      await root.api.put(`/plugins/${encodeURIComponent(p.id)}/enabled`, { enabled });
      setRows((rs) => rs.map((r) => (r.id === p.id ? { ...r, enabled } : r)));
      const name = localName(p.displayName, i18n.language, p.id);
      root.ui.notify({ kind: "success", title: enabled ? t("marketplace.modules.switchedOn", { name }) : t("marketplace.modules.switchedOff", { name }) });
      await root.reloadPlugins();
    } catch {
      void load();
    } finally {
      setSaving(null);
    }
  };

  return (
    <div className="oa-page" data-page="ModulosPage" data-testid="modules-page">
      <Card variant="borderless">
        <SectionHeader level={3} title={t("marketplace.modules.title")} description={t("marketplace.modules.description")} />
        {kindsPresent.length > 1 ? (
          <Segmented
            style={{ marginBottom: 16 }}
            value={kind}
            onChange={(v) => setKind(String(v))}
            data-testid="modules-kind"
            options={[
              { value: "all", label: `${t("marketplace.catalogue.allKinds")} (${rows.length})` },
              ...kindsPresent.map((k) => ({ value: k, label: <span data-testid={`modules-kind-${k}`}>{`${kindLabel(k)} (${rows.filter((r) => r.kind === k).length})`}</span> })),
            ]}
          />
        ) : null}
        <Table<TenantModule>
          rowKey="id"
          loading={loading}
          dataSource={shown}
          pagination={shown.length > PLUGINS_PAGE ? { pageSize: PLUGINS_PAGE, showSizeChanger: false } : false}
          scroll={narrow ? undefined : { x: 900 }}
          locale={{ emptyText: <Empty image={<AppstoreOutlined style={{ fontSize: 48, opacity: 0.35 }} />} description={t("marketplace.modules.empty")} /> }}
          onRow={(p) => ({ "data-testid": `module-row-${p.id}` }) as HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: t("marketplace.modules.module"),
              key: "name",
              minWidth: narrow ? undefined : 240,
              render: (_: unknown, p) => (
                <span className="oa-cell-main">
                  <KindIcon kind={p.kind} />
                  <span className="oa-cell-text">
                    <strong>{localName(p.displayName, i18n.language, p.id)}</strong>
                    <span className="oa-muted oa-code">{p.id}</span>
                    {narrow ? (
                      <span className="oa-mkt-module-narrow">
                        <span className="oa-code">{p.version}</span>
                        <TierTag tier={p.tier} />
                      </span>
                    ) : null}
                    {narrow && whyOf(p) ? whyNote(p) : null}
                  </span>
                </span>
              ),
            },
            ...(narrow
              ? []
              : [
                  { title: t("marketplace.kind"), dataIndex: "kind", width: 140, render: (k: string) => <Tag>{kindLabel(k)}</Tag> },
                  { title: t("marketplace.version"), dataIndex: "version", width: 110, render: (v: string) => <span className="oa-code">{v}</span> },
                  { title: t("marketplace.tier"), dataIndex: "tier", width: 110, render: (tier: TenantModule["tier"], p: TenantModule) => <TierTag tier={tier} testId={`module-tier-${p.id}`} /> },
                ]),
            {
              title: t("marketplace.modules.inUse"),
              key: "enabled",
              width: narrow ? 72 : 300,
              render: (_: unknown, p) => {
                const block = moduleBlock(p);
                const on = p.enabled && !block;
                const why = whyOf(p);
                const control = (
                  <Switch
                    checked={on}
                    disabled={!!block}
                    loading={saving === p.id}
                    onChange={(v) => void toggle(p, v)}
                    aria-label={t("marketplace.modules.switch", { name: localName(p.displayName, i18n.language, p.id) })}
                    data-testid={`module-switch-${p.id}`}
                  />
                );
                return (
                  <div className="oa-mkt-module-switch" data-testid={`module-state-${p.id}`} data-enabled={String(on)} data-blocked={block?.reason ?? ""}>
                    {why ? (
                      <Tooltip title={why}>
                        <span className="oa-mkt-switch-wrap">{control}</span>
                      </Tooltip>
                    ) : (
                      control
                    )}
                    {narrow ? null : why ? (
                      whyNote(p)
                    ) : (
                      <Typography.Text type="secondary">{on ? t("marketplace.modules.on") : t("marketplace.modules.off")}</Typography.Text>
                    )}
                  </div>
                );
              },
            },
          ]}
        />
      </Card>
    </div>
  );
}
