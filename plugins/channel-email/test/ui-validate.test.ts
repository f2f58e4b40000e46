/** The connect form's rules: the same as the manifest's settingsSchema, every e-mail field required (spec §5). */
import Validator from "fastest-validator";
import { validateEmail, validateImap, validateSmtp, DEFAULTS } from "../src/ui/validate";
import { texts } from "../src/ui/texts";
import { SETTINGS_SCHEMA } from "../src/settings";

const t = (k: string, vars?: Record<string, unknown>) => (vars ? `${k}:${JSON.stringify(vars)}` : k);
const good = {
  imapHost: "imap.example.com",
  imapPort: 993,
  imapTls: true,
  imapUser: "atendimento@example.com",
  imapPassword: "s3cret",
  smtpHost: "smtp.example.com",
  smtpPort: 587,
  smtpTls: false,
  smtpUser: "atendimento@example.com",
  smtpPassword: "s3cret",
  fromAddress: "atendimento@example.com",
  fromName: "Atendimento",
};
const serverAccepts = (v: Record<string, unknown>) => new Validator().validate({ ...v }, SETTINGS_SCHEMA as never) === true;

describe("validateEmail", () => {
  it("accepts complete settings, which the manifest's schema accepts too", () => {
    expect(validateEmail(good, t)).toEqual({});
    expect(serverAccepts(good)).toBe(true);
  });

  it("requires every field, and says which", () => {
    const errors = validateEmail({ ...DEFAULTS }, t);
    expect(Object.keys(errors).sort()).toEqual(["fromAddress", "fromName", "imapHost", "imapPassword", "imapUser", "smtpHost", "smtpPassword", "smtpUser"]);
    expect(new Set(Object.values(errors))).toEqual(new Set(["errRequired"]));
    expect(validateEmail({ ...good, imapTls: undefined }, t)).toEqual({ imapTls: "errRequired" });
    expect(validateEmail({ ...good, smtpHost: "   " }, t)).toEqual({ smtpHost: "errRequired" });
  });

  it.each([
    [{ imapPort: 0 }, { imapPort: "errPort" }],
    [{ smtpPort: 70000 }, { smtpPort: "errPort" }],
    [{ smtpPort: 25.5 }, { smtpPort: "errPort" }],
    [{ imapHost: "imap example.com" }, { imapHost: "errHost" }],
    [{ fromAddress: "atendimento" }, { fromAddress: "errEmail" }],
    [{ fromName: "x".repeat(121) }, { fromName: 'errMax:{"max":120}' }],
  ])("%j is refused: %j, and the server refuses it as well", (patch, expected) => {
    expect(validateEmail({ ...good, ...patch }, t)).toEqual(expected);
    expect(serverAccepts({ ...good, ...patch })).toBe(false);
  });

  it("checks only the IMAP half for test IMAP, and only the SMTP half (with the sender) for test SMTP", () => {
    expect(validateImap({ ...good, smtpHost: "", fromAddress: "" }, t)).toEqual({});
    expect(validateSmtp({ ...good, imapHost: "" }, t)).toEqual({});
    expect(validateSmtp({ ...good, fromAddress: "x" }, t)).toEqual({ fromAddress: "errEmail" });
  });
});

describe("texts", () => {
  it("have the same keys in the four languages", () => {
    const keys = (o: object, p = ""): string[] => Object.entries(o).flatMap(([k, v]) => (typeof v === "object" ? keys(v, `${p}${k}.`) : [`${p}${k}`])).sort();
    const base = keys(texts["pt-BR"]);
    for (const lang of ["en", "es", "ru"] as const) expect(keys(texts[lang])).toEqual(base);
  });
});
