import { makeAutoObservable, runInAction } from "mobx";
import type { ApiClient } from "../api/client";

/**
 * The tenant's settings (GET /settings: visibility rules, hide-contact, groups tab, …) for
 * every screen that follows them. Loaded once per session and again when asked (the settings
 * screen saves through PUT /settings/:key and calls `reload`).
 */
export class SettingsStore {
  values: Record<string, unknown> = {};
  loaded = false;
  private loading: Promise<void> | null = null;

  constructor(private api: ApiClient) {
    makeAutoObservable<SettingsStore, "api" | "loading">(this, { api: false, loading: false });
  }

  /** Loads once; later calls share the first load. */
  load(): Promise<void> {
    this.loading ??= this.reload();
    return this.loading;
  }

  async reload(): Promise<void> {
    const v = await this.api.get<Record<string, unknown>>("/settings", { silent: true }).catch(() => null);
    runInAction(() => {
      if (v) this.values = v;
      this.loaded = true;
    });
  }

  get(key: string): unknown {
    return this.values[key];
  }

  /** A yes/no setting, stored as a boolean or as "enabled"/"disabled" strings. */
  flag(key: string): boolean {
    const v = this.values[key];
    return v === true || v === "enabled" || v === "true" || v === 1;
  }

  async save(key: string, value: unknown): Promise<void> {
    await this.api.put(`/settings/${encodeURIComponent(key)}`, { value }, { successNotice: true });
    runInAction(() => (this.values = { ...this.values, [key]: value }));
  }

  reset() {
    this.values = {};
    this.loaded = false;
    this.loading = null;
  }
}
