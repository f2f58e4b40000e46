import { makeAutoObservable, runInAction } from "mobx";
import type { ApiClient } from "./client";

export interface CatalogueText {
  title: string;
  detail?: string;
}

/** GET /errors/catalogue: the server's error texts by locale and code (core/src/errors). */
interface CatalogueExport {
  errors?: Record<string, Record<string, CatalogueText>>;
  fallbackLocale?: string;
}

/**
 * The server's error catalogue, for codes the shell shows without an error answer of its own
 * to read them from: a connection's inactive reason, an import row's reason, a failed
 * message's reason. The shell never words a catalogue code itself; this is where their
 * texts come from. Fetched once, on the first look-up (observable: a view asking before it
 * arrives renders again when it does).
 */
export class ErrorCatalogue {
  private texts: Record<string, Record<string, CatalogueText>> | null = null;
  private fallback = "en";
  private asked = false;

  constructor(private readonly api: Pick<ApiClient, "get">) {
    makeAutoObservable<ErrorCatalogue, "api" | "asked">(this, { api: false, asked: false });
  }

  private load() {
    if (this.asked) return;
    this.asked = true;
    void this.api.get<CatalogueExport>("/errors/catalogue", { silent: true }).then(
      (c) =>
        runInAction(() => {
          this.texts = c.errors ?? {};
          this.fallback = c.fallbackLocale ?? "en";
        }),
      () => {
        // Asked again on the next look-up (the network may be back).
        this.asked = false;
      },
    );
  }

  /** A code's title and detail in a locale, its {{placeholders}} filled from `data` (left out when unfilled); null until loaded or when unknown. */
  text(code: string | null | undefined, locale: string, data: Record<string, unknown> = {}): CatalogueText | null {
    if (!code || !/^ERR_[A-Z0-9_]+$/.test(code)) return null;
    this.load();
    const e = this.texts?.[locale]?.[code] ?? this.texts?.[this.fallback]?.[code];
    if (!e) return null;
    return { title: fill(e.title, data), detail: e.detail ? fill(e.detail, data) : undefined };
  }

  /** "Title: detail", or the title alone when the detail needs data it was not given. */
  line(code: string | null | undefined, locale: string, data?: Record<string, unknown>): string | null {
    const e = this.text(code, locale, data);
    if (!e) return null;
    return e.detail && !e.detail.includes("{{") ? `${e.title}: ${e.detail}` : e.title;
  }
}

function fill(text: string, data: Record<string, unknown>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k: string) => (data[k] === undefined || data[k] === null ? m : String(data[k])));
}
