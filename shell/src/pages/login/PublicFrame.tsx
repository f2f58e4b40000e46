import type { ReactNode } from "react";
import { observer } from "mobx-react-lite";
import type { UiLocale } from "@openatende/plugin-sdk/ui";
import { useRoot } from "../../app/context";
import { LOCALES } from "../../i18n/resources";
import "./public.css";

function Mark({ size = 40 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" className="oa-pub-mark">
      <rect width="32" height="32" rx="9" fill="currentColor" />
      <path d="M8 10h16v9H14l-4 4v-4H8z" fill="#fff" />
    </svg>
  );
}

function Check() {
  return (
    <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true">
      <circle cx="10" cy="10" r="10" fill="rgba(255,255,255,0.18)" />
      <path d="M5.5 10.5l3 3 6-7" stroke="#fff" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The application's logo (GET /load-config logoUrl) or the built-in mark, with its name. */
export const Brand = observer(function Brand({ light = false }: { light?: boolean }) {
  const root = useRoot();
  const name = root.frontConfig.applicationName || root.t("common.appName");
  return (
    <div className={`oa-pub-brand-row${light ? " oa-light-text" : ""}`}>
      {root.frontConfig.logoUrl ? <img src={root.frontConfig.logoUrl} alt="" className="oa-pub-logo" /> : <Mark />}
      <span className="oa-pub-name">{name}</span>
    </div>
  );
});

export const LanguageSelect = observer(function LanguageSelect() {
  const root = useRoot();
  return (
    <label className="oa-pub-lang">
      <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
        <path
          fill="currentColor"
          d="M12 2a10 10 0 100 20 10 10 0 000-20zm6.9 6h-3a15.7 15.7 0 00-1.4-3.6A8 8 0 0118.9 8zM12 4.1c.8 1.1 1.5 2.4 1.9 3.9h-3.8c.4-1.5 1.1-2.8 1.9-3.9zM4.3 14a8.3 8.3 0 010-4h3.4a16.5 16.5 0 000 4H4.3zm.8 2h3a15.7 15.7 0 001.4 3.6A8 8 0 015.1 16zm3-8h-3a8 8 0 014.4-3.6C8.9 5.5 8.4 6.7 8.1 8zM12 19.9c-.8-1.1-1.5-2.4-1.9-3.9h3.8c-.4 1.5-1.1 2.8-1.9 3.9zm2.3-5.9H9.7a14.7 14.7 0 010-4h4.6a14.7 14.7 0 010 4zm.2 5.6c.6-1.1 1.1-2.3 1.4-3.6h3a8 8 0 01-4.4 3.6zm1.8-5.6a16.5 16.5 0 000-4h3.4a8.3 8.3 0 010 4h-3.4z"
        />
      </svg>
      <span className="oa-sr-only">{root.t("login.language")}</span>
      <select value={root.session.locale} onChange={(e) => root.setLocale(e.target.value as UiLocale)} aria-label={root.t("login.language")} data-testid="language-select">
        {LOCALES.map((l) => (
          <option key={l} value={l}>
            {root.t(`common.languages.${l}`)}
          </option>
        ))}
      </select>
    </label>
  );
});

/**
 * The frame of the public pages: the brand side (tagline, what the product does) and the
 * card with the page's form, placed by the configured login position (left, center, right).
 */
export const PublicFrame = observer(function PublicFrame({ children, page }: { children: ReactNode; page: string }) {
  const root = useRoot();
  const position = root.frontConfig.loginPosition ?? "center";
  const name = root.frontConfig.applicationName || root.t("common.appName");
  return (
    <div className={`oa-pub oa-pub-${position}`} data-page={page}>
      <aside className="oa-pub-side">
        <Brand light />
        <div className="oa-pub-pitch">
          <h2>{root.t("login.brand.tagline")}</h2>
          <ul>
            <li>
              <Check />
              {root.t("login.brand.channels")}
            </li>
            <li>
              <Check />
              {root.t("login.brand.team")}
            </li>
            <li>
              <Check />
              {root.t("login.brand.insights")}
            </li>
          </ul>
        </div>
        <div className="oa-pub-bubbles" aria-hidden="true">
          <span className="oa-bubble oa-bubble-in">{root.t("login.brand.sampleIn")}</span>
          <span className="oa-bubble oa-bubble-out">{root.t("login.brand.sampleOut")}</span>
        </div>
      </aside>
      <main className="oa-pub-main">
        <div className="oa-pub-top">
          <span className="oa-pub-top-brand">
            <Brand />
          </span>
          <LanguageSelect />
        </div>
        <div className="oa-pub-card">{children}</div>
        <footer className="oa-pub-foot">{root.t("login.footer", { year: new Date().getFullYear(), app: name })}</footer>
      </main>
    </div>
  );
});
