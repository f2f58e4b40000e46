import { PLUGINS_PAGE } from "../../plugins/registry";
import { useCallback, useEffect, useRef, useState, type HTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { Badge, Button, Card, Empty, Segmented, Select, Table, Tag, Tooltip, Typography } from "antd";
import { BankOutlined, ReloadOutlined, WarningOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { SectionHeader } from "../../ui/SectionHeader";
import { decisionOf, decisionValue, localName, type Decision } from "./logic";
import { KindIcon, TierTag } from "./shared";
import type { TenantPluginView, TenantSummary } from "./types";

const SEARCH_DEBOUNCE_MS = 300;

/** Why a plugin is not available to a tenant, most decisive first (null: it is available). */
function unavailableReason(p: TenantPluginView): "notAllowed" | "disabled" | "tier" | null {
  if (!p.allowed) return "notAllowed";
  if (!p.enabled) return "disabled";
  if (!p.tierAllowed) return "tier";
  return null;
}

/** The tenants to choose from (GET /tenants, searched on the server as one types). */
function useTenantSearch() {
  const root = useRoot();
  const [typed, setTyped] = useState("");
  const [tenants, setTenants] = useState<TenantSummary[]>([]);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);
  useEffect(() => {
    const h = setTimeout(async () => {
      const n = ++seq.current;
      setLoading(true);
      try {
        const r = await root.api.get<{ tenants: TenantSummary[] }>("/tenants", { query: { searchParam: typed.trim(), pageSize: 50 } });
        if (n === seq.current) setTenants(r.tenants ?? []);
      } catch {
        /* shown by the client */
      } finally {
        if (n === seq.current) setLoading(false);
      }
    }, typed ? SEARCH_DEBOUNCE_MS : 0);
    return () => clearTimeout(h);
  }, [root, typed]);
  return { tenants, loading, search: setTyped };
}

/**
 * Marketplace › Empresas: for one tenant, every plugin of the platform with the super's
 * three-state decision (allowed, blocked, or the default policy: bundled plugins allowed (their tier still gates them),
 * anything else blocked), the plugin's tier against the tenant's licence, the tenant admin's
 * own switch and what results of the three.
 */
export default function TenantsTab() {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const { tenants, loading: searching, search } = useTenantSearch();
  const [tenant, setTenant] = useState<TenantSummary | null>(null);
  const [rows, setRows] = useState<TenantPluginView[]>([]);
  const [loading, setLoading] = useState(false);
  const [saving, setSaving] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!tenant) return;
    setLoading(true);
    try {
      setRows(await root.api.get<TenantPluginView[]>(`/plugins/tenants/${tenant.id}`));
    } catch {
      setRows([]);
    } finally {
      setLoading(false);
    }
  }, [root, tenant]);
  useEffect(() => void load(), [load]);

  const decide = async (p: TenantPluginView, d: Decision) => {
    if (!tenant) return;
    setSaving(p.id);
    try {
      await root.api.put(`/plugins/${encodeURIComponent(p.id)}/tenants/${tenant.id}`, { allowed: decisionValue(d) });
      root.ui.notify({ kind: "success", title: t(`marketplace.tenants.saved.${d}`, { name: localName(p.displayName, i18n.language, p.id), tenant: tenant.name }) });
      await load();
    } catch {
      /* shown by the client */
    } finally {
      setSaving(null);
    }
  };

  return (
    <Card variant="borderless" data-testid="tenants-tab">
      <SectionHeader
        title={t("marketplace.tenants.title")}
        description={t("marketplace.tenants.description")}
        extra={
          tenant ? (
            <Tooltip title={t("marketplace.reload")}>
              <Button icon={<ReloadOutlined />} onClick={() => void load()} aria-label={t("marketplace.reload")} />
            </Tooltip>
          ) : null
        }
      />
      <div className="oa-toolbar">
        <Select<number>
          className="oa-mkt-tenant-picker"
          placeholder={t("marketplace.tenants.pick")}
          aria-label={t("marketplace.tenants.pick")}
          value={tenant?.id}
          loading={searching}
          showSearch={{ filterOption: false, onSearch: search }}
          onChange={(id) => {
            setTenant(tenants.find((x) => x.id === id) ?? null);
            search("");
          }}
          notFoundContent={searching ? null : t("marketplace.tenants.noTenants")}
          options={(tenant && !tenants.some((x) => x.id === tenant.id) ? [tenant, ...tenants] : tenants).map((x) => ({
            value: x.id,
            label: x.name,
          }))}
          optionRender={(o) => (
            <span className="oa-mkt-tenant-option" data-testid={`tenant-option-${o.value}`}>
              <span>{o.label}</span>
              <span className="oa-muted">#{o.value}</span>
            </span>
          )}
          data-testid="tenant-picker"
        />
        {tenant ? <Typography.Text type="secondary">{t("marketplace.tenants.count", { count: rows.length })}</Typography.Text> : null}
      </div>
      {!tenant ? (
        <Empty image={<BankOutlined style={{ fontSize: 48, opacity: 0.35 }} />} description={t("marketplace.tenants.pickHint")} data-testid="tenants-pick-hint" />
      ) : (
        <Table<TenantPluginView>
          rowKey="id"
          loading={loading}
          dataSource={rows}
          pagination={rows.length > PLUGINS_PAGE ? { pageSize: PLUGINS_PAGE, showSizeChanger: false } : false}
          scroll={{ x: 980 }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("marketplace.tenants.empty")} /> }}
          onRow={(p) => ({ "data-testid": `tenant-plugin-row-${p.id}` }) as HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: t("marketplace.plugin"),
              key: "name",
              minWidth: 240,
              render: (_: unknown, p) => (
                <span className="oa-cell-main">
                  <KindIcon kind={p.kind} />
                  <span className="oa-cell-text">
                    <strong>{localName(p.displayName, i18n.language, p.id)}</strong>
                    <span className="oa-muted">
                      <span className="oa-code">{p.id}</span> · {p.version} · {p.bundled ? t("marketplace.tenants.bundled") : t("marketplace.tenants.installed")}
                    </span>
                  </span>
                </span>
              ),
            },
            {
              title: t("marketplace.tier"),
              dataIndex: "tier",
              width: 150,
              render: (tier: TenantPluginView["tier"], p) => (
                <span className="oa-tags">
                  <TierTag tier={tier} />
                  {!p.tierAllowed ? (
                    <Tooltip title={t("marketplace.tenants.tierBelowHint", { tier })}>
                      <Tag color="warning" variant="filled" icon={<WarningOutlined />} data-testid={`tenant-plugin-tier-warning-${p.id}`}>
                        {t("marketplace.tenants.tierBelow")}
                      </Tag>
                    </Tooltip>
                  ) : null}
                </span>
              ),
            },
            {
              title: t("marketplace.tenants.decision"),
              key: "decision",
              width: 270,
              render: (_: unknown, p) => {
                const value = decisionOf(p.decision);
                return (
                  <div className="oa-mkt-decision" data-testid={`tenant-plugin-decision-${p.id}`} data-decision={value}>
                    <Segmented<Decision>
                      size="small"
                      value={value}
                      disabled={saving === p.id}
                      onChange={(d) => void decide(p, d)}
                      options={(["allow", "block", "default"] as const).map((d) => ({
                        value: d,
                        label: <span data-testid={`decision-${p.id}-${d}`}>{t(`marketplace.tenants.decisions.${d}`)}</span>,
                      }))}
                    />
                    {value === "default" ? (
                      <span className="oa-muted">{p.allowedByDefault ? t("marketplace.tenants.defaultAllows") : t("marketplace.tenants.defaultBlocks")}</span>
                    ) : null}
                  </div>
                );
              },
            },
            {
              title: t("marketplace.tenants.adminSwitch"),
              dataIndex: "enabled",
              width: 140,
              render: (on: boolean, p) => (
                <Tooltip title={t("marketplace.tenants.adminSwitchHint")}>
                  <Tag color={on ? "green" : undefined} variant="outlined" data-testid={`tenant-plugin-enabled-${p.id}`} data-enabled={String(on)}>
                    {on ? t("marketplace.tenants.switchOn") : t("marketplace.tenants.switchOff")}
                  </Tag>
                </Tooltip>
              ),
            },
            {
              title: t("marketplace.tenants.availability"),
              key: "available",
              width: 180,
              render: (_: unknown, p) => {
                const why = unavailableReason(p);
                return (
                  <span className="oa-cell-text" data-testid={`tenant-plugin-available-${p.id}`} data-available={String(p.available)}>
                    <Badge status={p.available ? "success" : "default"} text={p.available ? t("marketplace.tenants.available") : t("marketplace.tenants.unavailable")} />
                    {!p.available && why ? <span className="oa-muted">{t(`marketplace.tenants.reasons.${why}`, { tier: p.tier })}</span> : null}
                  </span>
                );
              },
            },
          ]}
        />
      )}
    </Card>
  );
}
