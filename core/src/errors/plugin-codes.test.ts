import { validateManifest, PluginError, type PluginManifest } from "@openatende/plugin-sdk";
import { toHttpError } from "../gateway/errors";
import { exportCatalogue } from "./catalogue";
import { addPluginErrors, dropPluginErrors, pluginErrorsConflict } from "./plugin-codes";

const texts = (word: string) => ({
  "pt-BR": { title: `Coluna ${word}`, detail: "A coluna tem {{cards}} cartões." },
  en: { title: `Column ${word}`, detail: "The column has {{cards}} cards." },
  es: { title: `Columna ${word}`, detail: "La columna tiene {{cards}} tarjetas." },
  ru: { title: `Колонка ${word}`, detail: "В колонке {{cards}} карточек." },
});

function manifest(id: string, errors: Record<string, unknown>): PluginManifest {
  const r = validateManifest({ name: `@t/${id}`, version: "1.0.0", platform: { id, kind: "module", tier: "PLUS", coreApi: "^1.0.0", displayName: { "pt-BR": id }, errors } });
  if (!r.ok) throw new Error(r.errors.join("; "));
  return r.manifest;
}

describe("plugin error codes", () => {
  afterEach(() => {
    dropPluginErrors("module-a");
    dropPluginErrors("module-b");
  });

  it("answers a plugin's PluginError with its manifest status and texts in the caller's language", () => {
    addPluginErrors(manifest("module-a", { ERR_BOARD_NOT_EMPTY: { status: 409, ...texts("cheia") } }));
    const ru = toHttpError(new PluginError("ERR_BOARD_NOT_EMPTY", 409, { cards: 3 }), "ru");
    expect(ru).toEqual({ status: 409, internal: false, body: { error: "ERR_BOARD_NOT_EMPTY", title: "Колонка cheia", message: "В колонке 3 карточек.", data: { cards: 3 } } });
    expect(toHttpError(new PluginError("ERR_BOARD_NOT_EMPTY", 409, { cards: 2 }), "pt-BR").body.message).toBe("A coluna tem 2 cartões.");
  });

  it("carries the codes in the catalogue the shell downloads, and forgets them with the plugin", () => {
    addPluginErrors(manifest("module-a", { ERR_BOARD_NOT_EMPTY: { status: 409, ...texts("cheia") } }));
    const c = exportCatalogue();
    expect(c.statuses).toMatchObject({ ERR_BOARD_NOT_EMPTY: 409, ERR_NOT_FOUND: 404 });
    expect((c.errors.es as Record<string, { title: string }>).ERR_BOARD_NOT_EMPTY.title).toBe("Columna cheia");
    dropPluginErrors("module-a");
    expect(exportCatalogue().statuses).not.toHaveProperty("ERR_BOARD_NOT_EMPTY");
    expect(toHttpError(new PluginError("ERR_BOARD_NOT_EMPTY", 409), "en").status).toBe(500);
  });

  it("refuses a plugin whose code is the core's or another plugin's", () => {
    expect(pluginErrorsConflict(manifest("module-a", { ERR_NOT_FOUND: { status: 404, ...texts("x") } }))).toMatch(/core's/);
    addPluginErrors(manifest("module-a", { ERR_BOARD_FULL: { status: 409, ...texts("x") } }));
    expect(pluginErrorsConflict(manifest("module-b", { ERR_BOARD_FULL: { status: 409, ...texts("y") } }))).toMatch(/module-a's/);
    expect(pluginErrorsConflict(manifest("module-a", { ERR_BOARD_FULL: { status: 409, ...texts("z") } }))).toBeNull();
  });

  it("validates the manifest's errors: code form, status, and both texts in every language", () => {
    const bad = validateManifest({
      name: "@t/x",
      version: "1.0.0",
      platform: { id: "module-x", kind: "module", tier: "FREE", coreApi: "^1.0.0", displayName: { "pt-BR": "x" }, errors: { err_lower: { status: 500, "pt-BR": { title: "t", detail: "d" } } } },
    });
    expect(bad.ok).toBe(false);
    const errs = (bad as { errors: string[] }).errors.join("\n");
    expect(errs).toMatch(/platform\.errors\.err_lower: the code must match/);
    expect(errs).toMatch(/status must be one of 400/);
    expect(errs).toMatch(/\["en"\] must have a non-empty title and detail/);
    expect(errs).toMatch(/\["ru"\] must have a non-empty title and detail/);
  });
});
