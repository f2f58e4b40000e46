import { useEffect, useState, type ReactNode } from "react";
import { observer } from "mobx-react-lite";
import { useLocation, useNavigate } from "react-router-dom";
import { useTranslation } from "react-i18next";
import { Avatar, Badge, Button, ConfigProvider, Drawer, Dropdown, Grid, Layout, Menu, Tag, Tooltip, type MenuProps } from "antd";
import {
  AppstoreAddOutlined,
  AppstoreOutlined,
  CheckOutlined,
  ContactsOutlined,
  DashboardOutlined,
  GlobalOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  MessageOutlined,
  MoonOutlined,
  SettingOutlined,
  ShopOutlined,
  BankOutlined,
  SunOutlined,
} from "@ant-design/icons";
import type { UiLocale } from "@openatende/plugin-sdk/ui";
import { AntdProvider } from "../../app/AntdProvider";
import { useRoot } from "../../app/context";
import type { RootStore } from "../../app/root";
import { LOCALES } from "../../i18n/resources";
import { initials } from "../../ui/person";
import "./layout.css";

const COLLAPSED_KEY = "oa-menu-collapsed";
/** The menu's selected entry: a light tint of the brand colour, its text in the brand colour. */
const MENU_LIGHT = { itemSelectedBg: "rgba(10, 125, 79, 0.09)", itemSelectedColor: "#0a7d4f", itemHoverBg: "rgba(16, 24, 20, 0.04)", itemActiveBg: "rgba(10, 125, 79, 0.14)" };
const MENU_DARK = { itemSelectedBg: "rgba(46, 184, 122, 0.16)", itemSelectedColor: "#5fd39e", itemHoverBg: "rgba(255, 255, 255, 0.06)", itemActiveBg: "rgba(46, 184, 122, 0.22)" };
const UNREAD_REFRESH_MS = 3_000;

/** Open + pending tickets with unread messages (GET /tickets/unread-count), refreshed by the ticket events. */
function useUnread(root: RootStore): number {
  const [count, setCount] = useState(0);
  const tenantId = root.session.tenantId;
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const load = async () => {
      last = Date.now();
      try {
        const r = await root.api.get<{ open: number; pending: number }>("/tickets/unread-count", { silent: true });
        if (live) setCount((r.open ?? 0) + (r.pending ?? 0));
      } catch {
        /* the badge keeps its last value */
      }
    };
    // At most one request every few seconds, however many events arrive.
    const schedule = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void load();
      }, Math.max(0, UNREAD_REFRESH_MS - (Date.now() - last)));
    };
    void load();
    const offs = [root.realtime.on(`${tenantId}:ticketList`, schedule), root.realtime.on(`${tenantId}:appMessage`, schedule)];
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [tenantId]);
  return count;
}

function Logo({ compact }: { compact: boolean }) {
  const root = useRoot();
  const name = root.frontConfig.applicationName || root.t("common.appName");
  return (
    <div className={`oa-logo${compact ? " oa-logo-compact" : ""}`}>
      {root.frontConfig.logoUrl ? (
        <img src={root.frontConfig.logoUrl} alt="" />
      ) : (
        <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">
          <rect width="32" height="32" rx="9" fill="#0a7d4f" />
          <path d="M8 10h16v9H14l-4 4v-4H8z" fill="#fff" />
        </svg>
      )}
      {compact ? null : <span>{name}</span>}
    </div>
  );
}

const RealtimeStatus = observer(function RealtimeStatus({ compact }: { compact: boolean }) {
  const root = useRoot();
  const { t } = useTranslation();
  const s = root.realtime.status;
  const badge = s === "connected" ? "success" : s === "failed" ? "error" : s === "idle" ? "default" : "warning";
  const label = t(`layout.realtime.${s}`);
  return (
    <Tooltip title={label}>
      <span className="oa-rt" data-testid="realtime-status" data-status={s}>
        <Badge status={badge} />
        {compact ? null : <span className="oa-rt-label">{label}</span>}
      </span>
    </Tooltip>
  );
});

/**
 * The main area's frame (spec §2): the menu (core pages, the enabled plugins' pages, settings
 * for admins, unread badge on the conversations), the header (real-time status, language,
 * light/dark mode, the user's menu with plan, version and sign-out) and the page.
 */
const Frame = observer(function Frame({ children }: { children: ReactNode }) {
  const root = useRoot();
  const { session } = root;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const screens = Grid.useBreakpoint();
  const mobile = screens.lg === false;
  const [collapsed, setCollapsed] = useState(() => window.localStorage.getItem(COLLAPSED_KEY) === "1");
  const [drawer, setDrawer] = useState(false);
  const unread = useUnread(root);
  const locale = session.locale;

  // The shell's own CSS (notices, not-found) follows the user's colour mode too.
  useEffect(() => {
    document.documentElement.classList.toggle("oa-dark", session.isDark);
    return () => document.documentElement.classList.remove("oa-dark");
  }, [session.isDark]);
  useEffect(() => setDrawer(false), [pathname]);

  const toggleCollapsed = () => {
    const next = !collapsed;
    setCollapsed(next);
    window.localStorage.setItem(COLLAPSED_KEY, next ? "1" : "0");
  };

  const pluginItems = root.plugins.menu
    .filter((m) => root.can(m.access))
    .map((m) => ({ key: `/${m.path.replace(/^\/+/, "")}`, icon: <AppstoreOutlined />, label: m.label[locale] ?? m.label["pt-BR"] }));
  const items: NonNullable<MenuProps["items"]> = [
    { key: "/home", icon: <DashboardOutlined />, label: t("layout.menu.home") },
    {
      key: "/atendimento",
      icon: <MessageOutlined />,
      label: (
        <span className="oa-menu-label">
          <span>{t("layout.menu.atendimento")}</span>
          {unread > 0 ? (
            <Badge count={unread} overflowCount={99} size="small" className="oa-menu-badge" title={t("layout.unread", { count: unread })} data-testid="unread-badge" />
          ) : null}
        </span>
      ),
    },
    { key: "/contatos", icon: <ContactsOutlined />, label: t("layout.menu.contatos") },
    ...pluginItems,
    ...(root.can("admin") ? [{ key: "/modulos", icon: <AppstoreAddOutlined />, label: t("layout.menu.plugins") }] : []),
    ...(root.can("admin") ? [{ key: "/configuracoes", icon: <SettingOutlined />, label: t("layout.menu.configuracoes") }] : []),
    ...(root.can("super") ? [{ key: "/marketplace", icon: <ShopOutlined />, label: t("marketplace.menu") }] : []),
    ...(root.can("super") ? [{ key: "/empresas", icon: <BankOutlined />, label: t("empresas.menu") }] : []),
  ];
  const selected = [...items.map((i) => String(i?.key))].filter((k) => pathname === k || pathname.startsWith(`${k}/`)).sort((a, b) => b.length - a.length)[0];
  const compact = collapsed && !mobile;

  const menu = (
    <div className="oa-sider-inner">
      <Logo compact={compact} />
      <ConfigProvider theme={{ components: { Menu: session.isDark ? MENU_DARK : MENU_LIGHT } }}>
        <Menu
          mode="inline"
          inlineCollapsed={compact}
          items={items}
          selectedKeys={selected ? [selected] : []}
          onClick={({ key }) => navigate(key)}
          className="oa-menu"
          data-testid="main-menu"
        />
      </ConfigProvider>
      <div className="oa-sider-foot">
        {compact ? null : (
          <>
            <Tag color="green" bordered={false} data-testid="plan-tag">
              {t("layout.plan", { tier: session.tier })}
            </Tag>
            <span>{session.versionCache ? t("layout.version", { version: session.versionCache.version }) : t("layout.versionUnknown")}</span>
          </>
        )}
      </div>
    </div>
  );

  const languageItems: MenuProps["items"] = LOCALES.map((l) => ({
    key: l,
    label: (
      <span className="oa-lang-item">
        {t(`common.languages.${l}`)}
        {l === locale ? <CheckOutlined /> : null}
      </span>
    ),
  }));
  const profile = session.profile ?? "user";
  const expiry = session.licenseCache?.expiryDate;
  const userItems: MenuProps["items"] = [
    {
      key: "who",
      disabled: true,
      label: (
        <div className="oa-user-card">
          <strong>{session.username}</strong>
          <span>{session.usuario?.email}</span>
          <span className="oa-user-tags">
            <Tag bordered={false}>{t(`layout.profiles.${profile}`)}</Tag>
            <Tag color="green" bordered={false}>
              {t("layout.plan", { tier: session.tier })}
            </Tag>
          </span>
          {expiry ? <span className="oa-user-meta">{t("layout.licenceUntil", { date: new Date(expiry).toLocaleDateString(locale) })}</span> : null}
          <span className="oa-user-meta">{session.versionCache ? t("layout.version", { version: session.versionCache.version }) : t("layout.versionUnknown")}</span>
        </div>
      ),
    },
    { type: "divider" },
    { key: "logout", danger: true, icon: <LogoutOutlined />, label: t("layout.logout") },
  ];
  const title = items.find((i) => String(i?.key) === selected) as { label?: ReactNode } | undefined;

  return (
    <Layout className="oa-shell" data-testid="main-layout">
      {mobile ? (
        <Drawer placement="left" open={drawer} onClose={() => setDrawer(false)} size={264} closable={false} styles={{ body: { padding: 0 } }}>
          {menu}
        </Drawer>
      ) : (
        <Layout.Sider className="oa-sider" width={240} collapsedWidth={72} collapsed={collapsed} trigger={null} theme="light">
          {menu}
        </Layout.Sider>
      )}
      <Layout className="oa-main">
        <Layout.Header className="oa-header">
          <Button
            type="text"
            icon={mobile ? <MenuOutlined /> : collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={mobile ? () => setDrawer(true) : toggleCollapsed}
            aria-label={mobile ? t("layout.openMenu") : collapsed ? t("layout.expand") : t("layout.collapse")}
            data-testid="menu-toggle"
          />
          <div className="oa-header-title">{selected === "/atendimento" ? t("layout.menu.atendimento") : (title?.label ?? null)}</div>
          <div className="oa-header-actions">
            <RealtimeStatus compact={mobile} />
            <Dropdown menu={{ items: languageItems, selectable: true, selectedKeys: [locale], onClick: ({ key }) => setLanguage(root, key as UiLocale) }} trigger={["click"]}>
              <Button type="text" icon={<GlobalOutlined />} aria-label={t("common.language")} data-testid="language-menu">
                {mobile ? null : <span className="oa-lang-code">{locale === "pt-BR" ? "PT" : locale.toUpperCase()}</span>}
              </Button>
            </Dropdown>
            <Tooltip title={session.isDark ? t("layout.theme.light") : t("layout.theme.dark")}>
              <Button
                type="text"
                icon={session.isDark ? <SunOutlined /> : <MoonOutlined />}
                onClick={() => void root.saveConfigs({ isDark: !session.isDark })}
                aria-label={session.isDark ? t("layout.theme.light") : t("layout.theme.dark")}
                data-testid="theme-toggle"
              />
            </Tooltip>
            <Dropdown menu={{ items: userItems, onClick: ({ key }) => key === "logout" && void root.logout() }} trigger={["click"]} placement="bottomRight">
              <button type="button" className="oa-user" aria-label={t("layout.account")} data-testid="user-menu">
                <Avatar size={32} src={session.image || undefined} className="oa-avatar">
                  {initials(session.username)}
                </Avatar>
                {mobile ? null : (
                  <span className="oa-user-text">
                    <strong>{session.username}</strong>
                    <span>{t(`layout.profiles.${profile}`)}</span>
                  </span>
                )}
              </button>
            </Dropdown>
          </div>
        </Layout.Header>
        <Layout.Content className="oa-content">{children}</Layout.Content>
      </Layout>
    </Layout>
  );
});

/** A language chosen in the header: the texts switch, and the user's configs keep it. */
function setLanguage(root: RootStore, l: UiLocale) {
  root.setLocale(l);
  void root.saveConfigs({ language: l });
}

export default function MainLayout({ children }: { children: ReactNode }) {
  return (
    <AntdProvider>
      <Frame>{children}</Frame>
    </AntdProvider>
  );
}
