import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Empty, Input, Spin } from "antd";
import { useRoot } from "../../app/context";
import "./composer-extras.css";

interface GifItem {
  id: string;
  title: string;
  preview: { url: string; width: number; height: number };
}
interface GifPage {
  results: GifItem[];
  next: number | null;
  attribution: string;
}

/**
 * GIF search (GET /gifs/search, GIPHY through the core): results as the agent types (after a
 * pause), more on demand, GIPHY's attribution always in view as its terms ask. Choosing one
 * hands its id to `onPick`; the core fetches and sends the GIF itself.
 */
export function GifPicker({ onPick, busy }: { onPick: (g: GifItem) => void; busy: boolean }) {
  const { t } = useTranslation();
  const root = useRoot();
  const [q, setQ] = useState("");
  const [items, setItems] = useState<GifItem[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [loading, setLoading] = useState(false);
  const [searched, setSearched] = useState(false);
  const seq = useRef(0);

  async function search(query: string, offset = 0) {
    const my = ++seq.current;
    setLoading(true);
    try {
      const page = await root.api.get<GifPage>("/gifs/search", { query: { q: query, offset, lang: root.session.locale } });
      if (my !== seq.current) return;
      setItems((prev) => (offset ? [...prev, ...page.results] : page.results));
      setNext(page.next);
      setSearched(true);
    } catch {
      /* the client shows the catalogue's error */
    } finally {
      if (my === seq.current) setLoading(false);
    }
  }

  useEffect(() => {
    const query = q.trim();
    if (!query) return;
    const h = setTimeout(() => void search(query), 400);
    return () => clearTimeout(h);
  }, [q]);

  return (
    <div className="oa-gif-picker" data-testid="gif-picker">
      <Input.Search
        autoFocus
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onSearch={(v) => v.trim() && void search(v.trim())}
        placeholder={t("atendimento.extras.gifSearch")}
        aria-label={t("atendimento.extras.gifSearch")}
        maxLength={50}
        data-testid="gif-search"
      />
      <div className="oa-gif-grid" role="listbox" aria-busy={loading}>
        {items.map((g) => (
          <button type="button" role="option" aria-selected={false} key={g.id} title={g.title || t("atendimento.extras.gifSend")} aria-label={g.title || t("atendimento.extras.gifSend")} disabled={busy} onClick={() => onPick(g)} data-testid="gif-result">
            <img src={g.preview.url} alt={g.title} loading="lazy" />
          </button>
        ))}
      </div>
      {loading ? <Spin size="small" /> : null}
      {searched && !loading && !items.length ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("atendimento.extras.gifEmpty")} /> : null}
      {next !== null && !loading ? (
        <Button size="small" type="link" onClick={() => void search(q.trim(), next)}>
          {t("atendimento.extras.gifMore")}
        </Button>
      ) : null}
      <div className="oa-gif-attribution" data-testid="gif-attribution">
        {t("atendimento.extras.gifPowered")}
      </div>
    </div>
  );
}
