/**
 * Every text of the shell in its four languages, one file per area and language
 * (locales/<lang>/<area>.ts). Keys are `<area>.<key>`; test/i18n.test.ts fails when a key
 * exists in one language and not in another.
 */
import ptCommon from "./locales/pt-BR/common";
import ptErrors from "./locales/pt-BR/errors";
import ptLogin from "./locales/pt-BR/login";
import ptLayout from "./locales/pt-BR/layout";
import ptHome from "./locales/pt-BR/home";
import ptAtendimento from "./locales/pt-BR/atendimento";
import ptContatos from "./locales/pt-BR/contatos";
import ptConfiguracoes from "./locales/pt-BR/configuracoes";
import enCommon from "./locales/en/common";
import enErrors from "./locales/en/errors";
import enLogin from "./locales/en/login";
import enLayout from "./locales/en/layout";
import enHome from "./locales/en/home";
import enAtendimento from "./locales/en/atendimento";
import enContatos from "./locales/en/contatos";
import enConfiguracoes from "./locales/en/configuracoes";
import esCommon from "./locales/es/common";
import esErrors from "./locales/es/errors";
import esLogin from "./locales/es/login";
import esLayout from "./locales/es/layout";
import esHome from "./locales/es/home";
import esAtendimento from "./locales/es/atendimento";
import esContatos from "./locales/es/contatos";
import esConfiguracoes from "./locales/es/configuracoes";
import ruCommon from "./locales/ru/common";
import ruErrors from "./locales/ru/errors";
import ruLogin from "./locales/ru/login";
import ruLayout from "./locales/ru/layout";
import ruHome from "./locales/ru/home";
import ruAtendimento from "./locales/ru/atendimento";
import ruContatos from "./locales/ru/contatos";
import ruConfiguracoes from "./locales/ru/configuracoes";

export const LOCALES = ["pt-BR", "en", "es", "ru"] as const;

export const resources = {
  "pt-BR": { common: ptCommon, errors: ptErrors, login: ptLogin, layout: ptLayout, home: ptHome, atendimento: ptAtendimento, contatos: ptContatos, configuracoes: ptConfiguracoes },
  en: { common: enCommon, errors: enErrors, login: enLogin, layout: enLayout, home: enHome, atendimento: enAtendimento, contatos: enContatos, configuracoes: enConfiguracoes },
  es: { common: esCommon, errors: esErrors, login: esLogin, layout: esLayout, home: esHome, atendimento: esAtendimento, contatos: esContatos, configuracoes: esConfiguracoes },
  ru: { common: ruCommon, errors: ruErrors, login: ruLogin, layout: ruLayout, home: ruHome, atendimento: ruAtendimento, contatos: ruContatos, configuracoes: ruConfiguracoes },
} as const;
