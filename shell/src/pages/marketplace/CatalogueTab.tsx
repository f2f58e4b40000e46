import { useCallback, useEffect, useRef, useState, type HTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { Button, Card, Empty, Input, Select, Table, Tag, Tooltip } from "antd";
import { AppstoreOutlined, ReloadOutlined, SearchOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { SectionHeader } from "../../ui/SectionHeader";
import { localName } from "./logic";
import PluginDrawer from "./PluginDrawer";
import { InstalledBadge, KindIcon, TierTag, useKindLabel } from "./shared";
import { KINDS, TIERS, type CatalogueEntry } from "./types";

const SEARCH_DEBOUNCE_MS = 350;

/**
 * Marketplace › Catálogo: the published plugins (GET /marketplace/plugins), searched as one
 * types and filtered by kind and tier, with the version installed on the platform; a row opens
 * the plugin's drawer (versions, install, upgrade, rollback, uninstall).
 */
export default function CatalogueTab() {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const kindLabel = useKindLabel();
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const [kind, setKind] = useState<string | undefined>();
  const [tier, setTier] = useState<string | undefined>();
  const [rows, setRows] = useState<CatalogueEntry[]>([]);
  const [loading, setLoading] = useState(true);
  const [open, setOpen] = useState<string | null>(null);
  const seq = useRef(0);

  useEffect(() => {
    const h = setTimeout(() => setSearch(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(h);
  }, [typed]);

  const load = useCallback(async () => {
    const n = ++seq.current;
    setLoading(true);
    try {
      const r = await root.api.get<{ rows: CatalogueEntry[]; count: number }>("/marketplace/plugins", { query: { search, kind, tier } });
      if (n === seq.current) setRows(r.rows ?? []);
    } catch {
      /* shown by the client */
    } finally {
      if (n === seq.current) setLoading(false);
    }
  }, [root, search, kind, tier]);
  useEffect(() => void load(), [load]);

  const filtered = !!(search || kind || tier);
  return (
    <Card variant="borderless" data-testid="catalogue-tab">
      <SectionHeader
        title={t("marketplace.catalogue.title")}
        description={t("marketplace.catalogue.description")}
        extra={
          <Tooltip title={t("marketplace.reload")}>
            <Button icon={<ReloadOutlined />} onClick={() => void load()} aria-label={t("marketplace.reload")} data-testid="catalogue-reload" />
          </Tooltip>
        }
      />
      <div className="oa-toolbar">
        <Input
          className="oa-grow oa-mkt-search"
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t("marketplace.catalogue.search")}
          aria-label={t("marketplace.catalogue.search")}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          data-testid="catalogue-search"
        />
        <Select
          allowClear
          className="oa-mkt-filter"
          placeholder={t("marketplace.catalogue.allKinds")}
          aria-label={t("marketplace.catalogue.kind")}
          value={kind}
          onChange={setKind}
          options={KINDS.map((k) => ({ value: k, label: kindLabel(k) }))}
          data-testid="catalogue-kind"
        />
        <Select
          allowClear
          className="oa-mkt-filter"
          placeholder={t("marketplace.catalogue.allTiers")}
          aria-label={t("marketplace.catalogue.tier")}
          value={tier}
          onChange={setTier}
          options={TIERS.map((x) => ({ value: x, label: x }))}
          data-testid="catalogue-tier"
        />
      </div>
      <Table<CatalogueEntry>
        rowKey="id"
        loading={loading}
        dataSource={rows}
        pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        scroll={{ x: 980 }}
        locale={{
          emptyText: <Empty image={<AppstoreOutlined style={{ fontSize: 48, opacity: 0.35 }} />} description={filtered ? t("marketplace.catalogue.noMatch") : t("marketplace.catalogue.empty")} />,
        }}
        onRow={(p) => ({ "data-testid": `catalogue-row-${p.id}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t("marketplace.plugin"),
            key: "name",
            minWidth: 240,
            render: (_: unknown, p) => (
              <span className="oa-cell-main">
                <KindIcon kind={p.kind} />
                <span className="oa-cell-text">
                  <button type="button" className="oa-name-link" onClick={() => setOpen(p.id)} data-testid={`catalogue-open-${p.id}`}>
                    {localName(p.displayName, i18n.language, p.id)}
                  </button>
                  <span className="oa-muted oa-code">{p.id}</span>
                  {p.description ? <span className="oa-muted">{p.description}</span> : null}
                </span>
              </span>
            ),
          },
          { title: t("marketplace.kind"), dataIndex: "kind", width: 110, render: (k: string) => <Tag>{kindLabel(k)}</Tag> },
          { title: t("marketplace.tier"), dataIndex: "tier", width: 100, render: (x: CatalogueEntry["tier"], p) => <TierTag tier={x} testId={`catalogue-tier-${p.id}`} /> },
          { title: t("marketplace.catalogue.publisher"), key: "publisher", width: 140, responsive: ["lg"], render: (_: unknown, p) => p.publisher?.name ?? "—" },
          {
            title: t("marketplace.catalogue.latest"),
            dataIndex: "latestVersion",
            width: 130,
            render: (v: string, p) => (
              <span className="oa-cell-text">
                <span className="oa-code">{v}</span>
                <span className="oa-muted">{t("marketplace.catalogue.versionCount", { count: p.versions })}</span>
              </span>
            ),
          },
          { title: t("marketplace.catalogue.installed"), key: "installed", width: 180, render: (_: unknown, p) => <InstalledBadge entry={p} /> },
          {
            title: t("common.actions"),
            key: "actions",
            width: 110,
            align: "right",
            fixed: "right",
            render: (_: unknown, p) => (
              <Button onClick={() => setOpen(p.id)} data-testid={`catalogue-details-${p.id}`}>
                {t("marketplace.catalogue.details")}
              </Button>
            ),
          },
        ]}
      />
      {open ? <PluginDrawer id={open} onClose={() => setOpen(null)} onChanged={() => void load()} /> : null}
    </Card>
  );
}
