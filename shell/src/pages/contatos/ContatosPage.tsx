import { useCallback, useEffect, useMemo, useRef, useState, type HTMLAttributes } from "react";
import { observer } from "mobx-react-lite";
import { useSearchParams } from "react-router-dom";
import { useTranslation } from "react-i18next";
import { Button, Card, Dropdown, Empty, Input, Modal, Pagination, Select, Space, Switch, Table, Tooltip, Typography } from "antd";
import { ClearOutlined, ContactsOutlined, DownloadOutlined, MoreOutlined, SearchOutlined, UploadOutlined, UserAddOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { SectionHeader } from "../../ui/SectionHeader";
import { contactColumns } from "./contactColumns";
import { ContactDrawer } from "./ContactDrawer";
import { ImportModal } from "./ImportModal";
import { downloadText } from "./download";
import type { ContactPage, ContactView, TagOption, UserOption } from "./types";
import "../../ui/kit.css";

/** Spec §5/§9: a contact search needs at least 2 letters. */
const SEARCH_MIN = 2;
const SEARCH_DEBOUNCE_MS = 400;
const PAGE_SIZES = [10, 20, 50, 100];

/**
 * /contatos: the tenant's contacts, paged by the server (which answers a page and whether
 * another one exists), searched by name, e-mail or number, filtered by tags or the user's
 * wallet; create / edit / delete; admins import CSV, export CSV and merge duplicates.
 * A link /contatos?contactId=<id> (the attendance's contact panel, the notes page) opens that
 * contact's drawer; a contact the tenant does not have gets the catalogue's not-found notice
 * and no drawer. Closing the drawer drops the parameter.
 */
export default observer(function ContatosPage() {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const admin = root.can("admin");
  const [rows, setRows] = useState<ContactView[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [page, setPage] = useState(1);
  // Spec §3 "page size": the tenant's (40 unless set, as in the core), within what the contacts
  // API pages by (at most 100); a change of it (settings read again) starts the list anew.
  const tenantPageSize = Math.min(100, Math.max(5, Number(root.settings.get("pageSize")) || 40));
  const [pageSize, setPageSize] = useState(tenantPageSize);
  useEffect(() => {
    setPageSize(tenantPageSize);
    setPage(1);
  }, [tenantPageSize]);
  const [search, setSearch] = useState("");
  const [term, setTerm] = useState("");
  const [tagFilter, setTagFilter] = useState<number[]>([]);
  const [mine, setMine] = useState(false);
  const [tags, setTags] = useState<TagOption[]>([]);
  const [users, setUsers] = useState<UserOption[]>([]);
  const [editing, setEditing] = useState<ContactView | null | undefined>(undefined);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [modal, modalHolder] = Modal.useModal();
  const seq = useRef(0);
  const [params, setParams] = useSearchParams();
  const linked = params.get("contactId");

  const dropLinked = useCallback(
    () =>
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.delete("contactId");
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const closeDrawer = () => {
    setEditing(undefined);
    if (linked !== null) dropLinked();
  };

  // The linked contact: read it (the client shows the not-found notice), then open its drawer.
  useEffect(() => {
    if (linked === null) return;
    if (!/^[1-9]\d{0,15}$/.test(linked)) {
      dropLinked();
      return;
    }
    let live = true;
    root.api.get<ContactView>(`/contacts/${linked}`).then(
      (c) => live && setEditing(c),
      () => live && dropLinked(),
    );
    return () => {
      live = false;
    };
  }, [root, linked, dropLinked]);

  // The search runs 400 ms after typing stops, and only from 2 characters (or when cleared).
  useEffect(() => {
    const q = search.trim();
    if (q && [...q].length < SEARCH_MIN) return;
    const h = setTimeout(() => {
      setTerm(q);
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(h);
  }, [search]);

  const load = useCallback(async () => {
    const n = ++seq.current;
    setLoading(true);
    try {
      const r = await root.api.get<ContactPage>("/contacts", {
        query: { searchParam: term || undefined, pageNumber: page, pageSize, tags: tagFilter.length ? tagFilter : undefined, walletUserId: mine ? (root.session.userId ?? undefined) : undefined },
      });
      if (n !== seq.current) return;
      if (!r.contacts.length && page > 1) {
        setPage(page - 1);
        return;
      }
      setRows(r.contacts);
      setHasMore(r.hasMore);
    } catch {
      /* shown by the client */
    } finally {
      if (n === seq.current) setLoading(false);
    }
  }, [root, term, page, pageSize, tagFilter, mine]);
  useEffect(() => void load(), [load]);

  useEffect(() => {
    root.api.get<TagOption[]>("/tags").then(setTags, () => undefined);
    root.api.get<{ users: UserOption[] }>("/users", { query: { pageSize: 200 } }).then((r) => setUsers(r.users), () => undefined);
  }, [root]);

  const userById = useMemo(() => new Map(users.map((u) => [u.id, u])), [users]);
  const tooShort = !!search.trim() && [...search.trim()].length < SEARCH_MIN;
  const filtered = !!term || tagFilter.length > 0 || mine;

  const remove = async (c: ContactView) => {
    try {
      await root.api.delete(`/contacts/${c.id}`, { successNotice: true });
      void load();
    } catch {
      /* shown by the client (contact with tickets…) */
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const csv = await root.api.get<string>("/contacts/export");
      const stamp = new Date().toISOString().slice(0, 10);
      downloadText(typeof csv === "string" ? csv : JSON.stringify(csv), `${t("contatos.exportFile")}-${stamp}.csv`);
    } catch {
      /* shown by the client */
    } finally {
      setExporting(false);
    }
  };

  const mergeDuplicates = () =>
    modal.confirm({
      title: t("contatos.duplicates.title"),
      content: t("contatos.duplicates.detail"),
      okText: t("contatos.duplicates.ok"),
      cancelText: t("common.cancel"),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const r = await root.api.post<{ removed: number; merged: number; skipped: number }>("/contacts/delete-duplicates", {});
          root.ui.notify({
            kind: "success",
            title: r.removed ? t("contatos.duplicates.done", { removed: r.removed, merged: r.merged }) : t("contatos.duplicates.none"),
            detail: r.skipped ? t("contatos.duplicates.skipped", { count: r.skipped }) : undefined,
          });
          void load();
        } catch {
          /* shown by the client */
        }
      },
    });

  const clearFilters = () => {
    setSearch("");
    setTerm("");
    setTagFilter([]);
    setMine(false);
    setPage(1);
  };

  const tagColor = useMemo(() => new Map(tags.map((x) => [x.id, x.color])), [tags]);
  const columns = useMemo(() => contactColumns({ t, locale: i18n.language, userById, onEdit: setEditing, onDelete: remove }), [t, i18n.language, userById, load]);

  return (
    <div className="oa-page" data-page="ContatosPage">
      {modalHolder}
      <SectionHeader
        level={3}
        title={t("contatos.title")}
        description={t("contatos.subtitle")}
        extra={
          <>
            {admin ? (
              <>
                <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="contacts-import">
                  {t("contatos.import.button")}
                </Button>
                <Button icon={<DownloadOutlined />} loading={exporting} onClick={exportCsv} data-testid="contacts-export">
                  {t("contatos.export")}
                </Button>
                <Dropdown
                  trigger={["click"]}
                  menu={{ items: [{ key: "dups", icon: <ClearOutlined />, label: t("contatos.duplicates.menu"), danger: true }], onClick: () => mergeDuplicates() }}
                >
                  <Button icon={<MoreOutlined />} aria-label={t("configuracoes.more")} data-testid="contacts-more" />
                </Dropdown>
              </>
            ) : null}
            <Button type="primary" icon={<UserAddOutlined />} onClick={() => setEditing(null)} data-testid="contacts-new">
              {t("contatos.new")}
            </Button>
          </>
        }
      />
      <Card variant="borderless">
        <div className="oa-toolbar">
          <Tooltip open={tooShort} title={t("contatos.searchMin", { count: SEARCH_MIN })} placement="bottomLeft">
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t("contatos.search")}
              style={{ width: 320, maxWidth: "100%" }}
              value={search}
              status={tooShort ? "warning" : undefined}
              onChange={(e) => setSearch(e.target.value)}
              data-testid="contacts-search"
            />
          </Tooltip>
          <Select
            mode="multiple"
            allowClear
            maxTagCount="responsive"
            style={{ minWidth: 220, maxWidth: 360 }}
            placeholder={t("contatos.filterTags")}
            value={tagFilter}
            onChange={(v) => {
              setTagFilter(v);
              setPage(1);
            }}
            optionFilterProp="label"
            options={tags.map((x) => ({ value: x.id, label: x.name }))}
            optionRender={(o) => (
              <Space>
                <span className="oa-swatch" style={{ background: tagColor.get(Number(o.value)), width: 12, height: 12 }} />
                {o.label}
              </Space>
            )}
          />
          <Space size={6}>
            <Switch
              size="small"
              checked={mine}
              onChange={(v) => {
                setMine(v);
                setPage(1);
              }}
              aria-label={t("contatos.myWallet")}
            />
            <Typography.Text>{t("contatos.myWallet")}</Typography.Text>
          </Space>
          <span className="oa-grow" />
          {filtered ? (
            <Button type="text" icon={<ClearOutlined />} onClick={clearFilters}>
              {t("contatos.clearFilters")}
            </Button>
          ) : null}
        </div>
        <Table<ContactView>
          rowKey="id"
          loading={loading}
          dataSource={rows}
          pagination={false}
          scroll={{ x: 660 }}
          data-testid="contacts-table"
          onRow={(c) => ({ "data-testid": `contact-row-${c.id}` }) as HTMLAttributes<HTMLElement>}
          locale={{
            emptyText: (
              <Empty className="oa-empty-cta" image={<ContactsOutlined style={{ fontSize: 48, opacity: 0.35 }} />} description={filtered ? t("contatos.noMatch", { term }) : t("contatos.empty")}>
                {filtered ? (
                  <Button onClick={clearFilters}>{t("contatos.clearFilters")}</Button>
                ) : (
                  <Space>
                    <Button type="primary" icon={<UserAddOutlined />} onClick={() => setEditing(null)}>
                      {t("contatos.new")}
                    </Button>
                    {admin ? (
                      <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
                        {t("contatos.import.button")}
                      </Button>
                    ) : null}
                  </Space>
                )}
              </Empty>
            ),
          }}
          columns={columns}
        />
        {rows.length || page > 1 ? (
          <div className="oa-pager">
            <Typography.Text type="secondary">
              {t("contatos.showing", { from: (page - 1) * pageSize + (rows.length ? 1 : 0), to: (page - 1) * pageSize + rows.length })}
            </Typography.Text>
            <Pagination
              current={page}
              pageSize={pageSize}
              // The API answers whether another page exists, not a total: one page more than
              // the current one while there is more.
              total={(page - 1) * pageSize + rows.length + (hasMore ? pageSize : 0)}
              showSizeChanger
              pageSizeOptions={[...new Set([...PAGE_SIZES, pageSize])].sort((a, b) => a - b)}
              onChange={(p, s) => {
                if (s !== pageSize) {
                  setPageSize(s);
                  setPage(1);
                } else setPage(p);
              }}
              data-testid="contacts-pagination"
            />
          </div>
        ) : null}
      </Card>
      {editing !== undefined ? (
        <ContactDrawer
          contact={editing}
          tags={tags}
          users={users}
          onClose={closeDrawer}
          onSaved={(c, created) => {
            closeDrawer();
            if (created) {
              // Show it: the new contact may be on another page of the alphabetical list.
              setRows((rs) => (rs.some((r) => r.id === c.id) ? rs : [c, ...rs]));
            } else setRows((rs) => rs.map((r) => (r.id === c.id ? c : r)));
          }}
        />
      ) : null}
      {importing ? (
        <ImportModal
          onClose={() => setImporting(false)}
          onImported={() => {
            root.api.get<TagOption[]>("/tags").then(setTags, () => undefined);
            void load();
          }}
        />
      ) : null}
    </div>
  );
});
