import type { ReactNode } from "react";
import { observer } from "mobx-react-lite";
import { App as AntdApp, ConfigProvider, theme } from "antd";
import ptBR from "antd/locale/pt_BR";
import enUS from "antd/locale/en_US";
import esES from "antd/locale/es_ES";
import ruRU from "antd/locale/ru_RU";
import { useRoot } from "./context";

const ANTD_LOCALES = { "pt-BR": ptBR, en: enUS, es: esES, ru: ruRU } as const;

/** The UI kit in the user's language and colour mode (isDark, saved in the user's configs). Loaded after login only. */
export const AntdProvider = observer(function AntdProvider({ children }: { children: ReactNode }) {
  const { session } = useRoot();
  const dark = session.isDark;
  return (
    <ConfigProvider
      locale={ANTD_LOCALES[session.locale]}
      theme={{ algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm, token: { colorPrimary: "#0a7d4f", colorLink: "#0a7d4f", colorInfo: "#0a7d4f", borderRadius: 8 } }}
    >
      <AntdApp className={dark ? "oa-dark" : "oa-light"}>{children}</AntdApp>
    </ConfigProvider>
  );
});
