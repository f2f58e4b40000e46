/**
 * Every text of the shell in this language, one module per area. Loaded as one chunk when the
 * language is in use (see ../../resources.ts); test/i18n.test.ts checks that every area file
 * of this folder is listed here and that the four languages have the same keys.
 */
import common from "./common";
import errors from "./errors";
import login from "./login";
import layout from "./layout";
import home from "./home";
import atendimento from "./atendimento";
import contatos from "./contatos";
import configuracoes from "./configuracoes";
import marketplace from "./marketplace";
import empresas from "./empresas";
import mensagensRapidas from "./mensagensRapidas";
import geral from "./geral";
import globais from "./globais";
import tempo from "./tempo";

export default { common, errors, login, layout, home, atendimento, contatos, configuracoes, marketplace, empresas, mensagensRapidas, geral, globais, tempo };
