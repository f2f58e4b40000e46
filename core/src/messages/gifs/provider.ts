/**
 * GIF search behind one interface (INTEGRATIONS.md §4: Tenor closed in 2026, GIPHY is the
 * provider an installation can get a key for; KLIPY could be another implementation). The
 * composer sees this shape only, never a provider's.
 *
 * How to add a provider: implement GifProvider (search, and get by id: a GIF is sent by its
 * id, so the core downloads only what the provider itself answered, never a URL the browser
 * sent), and choose it in gifs/index.ts from the platform's global settings.
 */
export interface GifRendition {
  url: string;
  width: number;
  height: number;
  size?: number;
}

export interface GifItem {
  id: string;
  title: string;
  /** Small, for the picker's grid. */
  preview: GifRendition;
  /** What is sent: an animated GIF small enough for the channels. */
  gif: GifRendition;
}

export interface GifPage {
  results: GifItem[];
  /** Offset of the next page, or null at the end. */
  next: number | null;
  /** The attribution the picker must show (GIPHY's terms: "Powered By GIPHY"). */
  attribution: string;
}

export interface GifSearch {
  q: string;
  limit: number;
  offset: number;
  lang?: string;
}

export interface GifProvider {
  readonly name: string;
  search(s: GifSearch): Promise<GifPage>;
  /** Null when the provider does not know the id. */
  get(id: string): Promise<GifItem | null>;
}

/** A provider's answer could not be used (its error, a timeout, a synthetic or malformed response). */
export class GifProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
