import { ErrorCatalogue } from "./catalogue";

const answer = {
  fallbackLocale: "en",
  errors: {
    "pt-BR": { ERR_PLUGIN_DISABLED: { title: "Módulo desativado", detail: "Este módulo não está ativo." }, ERR_LICENSE_TIER_REQUIRED: { title: "Plano", detail: "Exige {{requiredTier}}." } },
    en: { ERR_PLUGIN_DISABLED: { title: "Module disabled" }, ERR_ONLY_EN: { title: "Only in English" } },
  },
};

describe("ErrorCatalogue", () => {
  it("asks the server once, then answers the code's texts in the locale, falling back to English", async () => {
    const get = jest.fn().mockResolvedValue(answer);
    const c = new ErrorCatalogue({ get } as never);
    expect(c.text("ERR_PLUGIN_DISABLED", "pt-BR")).toBeNull();
    await Promise.resolve();
    await Promise.resolve();
    expect(c.text("ERR_PLUGIN_DISABLED", "pt-BR")).toEqual({ title: "Módulo desativado", detail: "Este módulo não está ativo." });
    expect(c.line("ERR_PLUGIN_DISABLED", "pt-BR")).toBe("Módulo desativado: Este módulo não está ativo.");
    expect(c.text("ERR_ONLY_EN", "ru")?.title).toBe("Only in English");
    expect(c.text("ERR_UNKNOWN", "en")).toBeNull();
    expect(c.text("not a code", "en")).toBeNull();
    expect(get).toHaveBeenCalledTimes(1);
  });

  it("fills placeholders from data, and leaves a detail that needs missing data out of the line", async () => {
    const c = new ErrorCatalogue({ get: jest.fn().mockResolvedValue(answer) } as never);
    c.text("ERR_PLUGIN_DISABLED", "en");
    await new Promise((r) => setTimeout(r, 0));
    expect(c.text("ERR_LICENSE_TIER_REQUIRED", "pt-BR", { requiredTier: "PLUS" })?.detail).toBe("Exige PLUS.");
    expect(c.line("ERR_LICENSE_TIER_REQUIRED", "pt-BR")).toBe("Plano");
  });

  it("asks again after a failed download", async () => {
    const get = jest.fn().mockRejectedValueOnce(new Error("offline")).mockResolvedValue(answer);
    const c = new ErrorCatalogue({ get } as never);
    c.text("ERR_PLUGIN_DISABLED", "en");
    await new Promise((r) => setTimeout(r, 0));
    c.text("ERR_PLUGIN_DISABLED", "en");
    await new Promise((r) => setTimeout(r, 0));
    expect(get).toHaveBeenCalledTimes(2);
    expect(c.text("ERR_PLUGIN_DISABLED", "en")?.title).toBe("Module disabled");
  });
});
