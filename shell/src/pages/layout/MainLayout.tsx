import { useEffect, useState, type CSSProperties, type ReactNode } from "react";
import { Glyph } from "../../ui/ChannelIcon";
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
  ThunderboltOutlined,
} from "@ant-design/icons";
import type { UiLocale } from "@openatende/plugin-sdk/ui";
import { AntdProvider } from "../../app/AntdProvider";
import { useRoot } from "../../app/context";
import type { RootStore } from "../../app/root";
import { LOCALES } from "../../i18n/resources";
import { initials } from "../../ui/person";
import { OnlineToggle } from "./OnlineToggle";
import { MENU_DARK, MENU_LIGHT, menuColorOf, tintedMenu } from "./menu-colors";
import { useUnread } from "./useUnread";
import "./layout.css";

const COLLAPSED_KEY = "oa-menu-collapsed";
/** The route the tenant's settings were last read for (module-wide: it outlives a remount of the frame). */
let settingsPath: string | null = null;

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
  // The tenant's settings (menu, wallpaper, list limit, visibility…) are read again when an
  // admin changes one (the socket's `{tenant}:settings`), and on each navigation and when the
  // tab comes back to the front (what a socket that was away missed): no reload needed.
  const tenantId = session.tenantId;
  useEffect(() => (tenantId === null ? undefined : root.realtime.on(`${tenantId}:settings`, () => void root.settings.reload())), [tenantId]);
  useEffect(() => {
    // The session's start loads them; each later route (the frame may mount again meanwhile) reads them anew.
    if (settingsPath !== null && settingsPath !== pathname) void root.settings.reload();
    settingsPath = pathname;
  }, [pathname]);
  useEffect(() => {
    const onShow = () => document.visibilityState === "visible" && void root.settings.reload();
    document.addEventListener("visibilitychange", onShow);
    return () => document.removeEventListener("visibilitychange", onShow);
  }, []);

  const toggleCollapsed = () => {
    const next = !collapsed;
    setCollapsed(next);
    window.localStorage.setItem(COLLAPSED_KEY, next ? "1" : "0");
  };

  const settings = root.settings;
  const hideSubtitles = settings.flag("hideMenuSubtitles");
  const tint = menuColorOf(settings.get("menuColors"), session.isDark);
  /** A core entry's label: its title, and the line under it unless the tenant hides those. */
  const entry = (title: ReactNode, sub: string, extra?: ReactNode) => (
    <span className="oa-menu-label">
      <span className="oa-menu-text">
        <span className="oa-menu-title">{title}</span>
        {hideSubtitles ? null : (
          <span className="oa-menu-sub" data-testid="menu-subtitle">
            {sub}
          </span>
        )}
      </span>
      {extra}
    </span>
  );
  const titles: Record<string, string> = {
    "/home": t("layout.menu.home"),
    "/atendimento": t("layout.menu.atendimento"),
    "/contatos": t("layout.menu.contatos"),
    "/mensagens-rapidas": t("mensagensRapidas.menu"),
    "/modulos": t("layout.menu.plugins"),
    "/configuracoes": t("layout.menu.configuracoes"),
    "/marketplace": t("marketplace.menu"),
    "/empresas": t("empresas.menu"),
  };

  const pluginItems = root.plugins.menu
    .filter((m) => root.can(m.access))
    .map((m) => ({
      key: `/${m.path.replace(/^\/+/, "")}`,
      // The entry's own icon, else its plugin's manifest icon, else a neutral one.
      icon: (
        <span className="anticon oa-menu-plugin-icon" data-testid={`menu-icon-${m.pluginId}`}>
          <Glyph icon={m.icon ?? root.plugins.enabled.find((p) => p.id === m.pluginId)?.icon} fallback={AppstoreOutlined} />
        </span>
      ),
      label: m.label[locale] ?? m.label["pt-BR"],
    }));
  const items: NonNullable<MenuProps["items"]> = [
    { key: "/home", icon: <DashboardOutlined />, label: entry(titles["/home"], t("layout.subtitles.home")) },
    {
      key: "/atendimento",
      icon: <MessageOutlined />,
      label: entry(
        titles["/atendimento"],
        t("layout.subtitles.atendimento"),
        unread > 0 ? <Badge count={unread} overflowCount={99} size="small" className="oa-menu-badge" title={t("layout.unread", { count: unread })} data-testid="unread-badge" /> : null,
      ),
    },
    { key: "/contatos", icon: <ContactsOutlined />, label: entry(titles["/contatos"], t("layout.subtitles.contatos")) },
    { key: "/mensagens-rapidas", icon: <ThunderboltOutlined />, label: entry(titles["/mensagens-rapidas"], t("layout.subtitles.mensagensRapidas")) },
    ...pluginItems,
    ...(root.can("admin") ? [{ key: "/modulos", icon: <AppstoreAddOutlined />, label: entry(titles["/modulos"], t("layout.subtitles.plugins")) }] : []),
    ...(root.can("admin") ? [{ key: "/configuracoes", icon: <SettingOutlined />, label: entry(titles["/configuracoes"], t("layout.subtitles.configuracoes")) }] : []),
    ...(root.can("super") ? [{ key: "/marketplace", icon: <ShopOutlined />, label: entry(titles["/marketplace"], t("layout.subtitles.marketplace")) }] : []),
    ...(root.can("super") ? [{ key: "/empresas", icon: <BankOutlined />, label: entry(titles["/empresas"], t("layout.subtitles.empresas")) }] : []),
  ];
  const selected = [...items.map((i) => String(i?.key))].filter((k) => pathname === k || pathname.startsWith(`${k}/`)).sort((a, b) => b.length - a.length)[0];
  const compact = collapsed && !mobile;

  const menu = (
    <div
      className={`oa-sider-inner${tint ? " is-tinted" : ""}`}
      style={tint ? ({ "--oa-menu-bg": tint.bg, "--oa-menu-ink": tint.ink } as CSSProperties) : undefined}
      data-testid="menu-panel"
      data-menu-color={tint?.bg ?? "theme"}
    >
      <Logo compact={compact} />
      <ConfigProvider theme={{ components: { Menu: tint ? tintedMenu(tint.ink) : session.isDark ? MENU_DARK : MENU_LIGHT } }}>
        <Menu
          mode="inline"
          inlineCollapsed={compact}
          items={items}
          selectedKeys={selected ? [selected] : []}
          onClick={({ key }) => navigate(key)}
          className={`oa-menu${hideSubtitles ? "" : " has-subtitles"}`}
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
  const title = selected ? (titles[selected] ?? (items.find((i) => String(i?.key) === selected) as { label?: ReactNode } | undefined)?.label) : null;

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
          <div className="oa-header-title">{title ?? null}</div>
          <div className="oa-header-actions">
            <OnlineToggle compact={mobile} />
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
