import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert, Button, Form, Input, Select, Space, Tag, Tooltip, Typography } from "antd";
import { ExperimentOutlined, SaveOutlined } from "@ant-design/icons";
import { useRoot } from "../../../app/context";
import { ApiError } from "../../../api/client";
import { applyFieldErrors } from "../../../ui/api-errors";
import { SettingRow, SettingsGroup } from "../SettingsGroup";

/** The platform's GIPHY settings as the core answers them (GET /settings/global: the key masked). */
export interface GiphySettings {
  apiKey?: string;
  baseUrl?: string;
  rating?: Rating;
}
const RATINGS = ["g", "pg", "pg-13", "r"] as const;
type Rating = (typeof RATINGS)[number];
/** The query of the Test button. */
const TEST_QUERY = "test";
const FIELDS = ["apiKey", "baseUrl", "rating"] as const;

interface GifResult {
  id: string;
  title: string;
  preview: { url: string; width: number; height: number };
}
type TestOutcome = { ok: true; results: GifResult[]; attribution: string } | { ok: false; title: string; detail: string };

/**
 * Global settings › Sistema › GIF (GIPHY) (spec §2 GIF search, INTEGRATIONS.md §4): the
 * installation's own GIPHY key (shown masked once saved; the masked value sent back keeps it,
 * an empty one turns the search off), the content rating and, for a GIPHY-compatible server,
 * its address. Test runs the composer's search (GET /gifs/search) with what is saved and shows
 * the GIFs or the catalogue's error.
 */
export function GiphySection({ stored, onSaved }: { stored: GiphySettings | undefined; onSaved: (v: GiphySettings) => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<{ apiKey: string; baseUrl: string; rating: Rating }>();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const configured = !!stored?.apiKey;

  useEffect(() => {
    form.setFieldsValue({ apiKey: stored?.apiKey ?? "", baseUrl: stored?.baseUrl ?? "", rating: stored?.rating ?? "g" });
    setDirty(false);
  }, [stored, form]);

  const save = async () => {
    const v = form.getFieldsValue();
    const value: GiphySettings = { rating: v.rating };
    if (v.apiKey?.trim()) value.apiKey = v.apiKey.trim();
    if (v.baseUrl?.trim()) value.baseUrl = v.baseUrl.trim();
    setSaving(true);
    try {
      const r = await root.api.put<{ value: GiphySettings }>("/settings/global/giphy", { value }, { silent: true, successNotice: t("globais.giphy.saved") });
      setOutcome(null);
      onSaved(r.value);
    } catch (e) {
      if (!applyFieldErrors(form, e, t, FIELDS)) root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };

  const test = async () => {
    setTesting(true);
    setOutcome(null);
    try {
      const r = await root.api.get<{ results: GifResult[]; attribution: string }>("/gifs/search", { query: { q: TEST_QUERY }, silent: true });
      setOutcome({ ok: true, results: r.results, attribution: r.attribution });
    } catch (e) {
      setOutcome(e instanceof ApiError ? { ok: false, title: e.title, detail: e.detail } : { ok: false, title: t("errors.generic.title"), detail: (e as Error)?.message ?? "" });
    } finally {
      setTesting(false);
    }
  };

  const testBlocked = !configured ? t("globais.giphy.testNeedsKey") : dirty ? t("globais.giphy.testSaveFirst") : null;

  return (
    <SettingsGroup
      id="giphy"
      title={
        <Space size={8} wrap>
          {t("globais.giphy.title")}
          <Tag color={configured ? "green" : "default"} data-testid="giphy-status">
            {configured ? t("globais.giphy.configured") : t("globais.giphy.notConfigured")}
          </Tag>
        </Space>
      }
      description={t("globais.giphy.description")}
    >
      <Form form={form} layout="vertical" requiredMark={false} onValuesChange={() => setDirty(true)} onFinish={() => void save()} data-testid="giphy-form">
        <SettingRow id="giphy-key" label={t("globais.giphy.apiKey")} hint={configured ? t("globais.giphy.apiKeyKeep") : t("globais.giphy.apiKeyHint")}>
          <Form.Item name="apiKey" style={{ margin: 0 }}>
            <Input.Password autoComplete="off" spellCheck={false} aria-labelledby="setting-giphy-key-label" placeholder={t("globais.giphy.apiKeyPlaceholder")} data-testid="giphy-key" />
          </Form.Item>
        </SettingRow>
        <SettingRow id="giphy-rating" label={t("globais.giphy.rating")} hint={t("globais.giphy.ratingHint")}>
          <Form.Item name="rating" style={{ margin: 0 }}>
            <Select aria-labelledby="setting-giphy-rating-label" data-testid="giphy-rating" options={RATINGS.map((r) => ({ value: r, label: t(`globais.giphy.ratings.${r}`) }))} />
          </Form.Item>
        </SettingRow>
        <SettingRow id="giphy-base-url" label={t("globais.giphy.baseUrl")} hint={t("globais.giphy.baseUrlHint")}>
          <Form.Item name="baseUrl" style={{ margin: 0 }}>
            <Input inputMode="url" spellCheck={false} aria-labelledby="setting-giphy-base-url-label" placeholder="https://api.giphy.com" data-testid="giphy-base-url" />
          </Form.Item>
        </SettingRow>
        <div className="oa-settings-actions">
          <Tooltip title={testBlocked}>
            <Button icon={<ExperimentOutlined />} onClick={() => void test()} loading={testing} disabled={!!testBlocked} data-testid="giphy-test">
              {t("globais.giphy.test")}
            </Button>
          </Tooltip>
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving} disabled={!dirty} data-testid="giphy-save">
            {t("common.save")}
          </Button>
        </div>
      </Form>
      {outcome ? <TestResult outcome={outcome} /> : null}
    </SettingsGroup>
  );
}

/** The Test button's answer, brought into view. */
function TestResult({ outcome }: { outcome: TestOutcome }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A block body: Chromium's scrollIntoView may answer a promise, which React would take for a clean-up.
    ref.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [outcome]);
  return <div ref={ref}>{outcome.ok ? <TestGifs outcome={outcome} /> : <Alert type="error" showIcon title={outcome.title} description={outcome.detail || undefined} data-testid="giphy-test-result" data-ok="0" />}</div>;
}

function TestGifs({ outcome }: { outcome: Extract<TestOutcome, { ok: true }> }) {
  const { t } = useTranslation();
  return (
    <Alert
      type={outcome.results.length ? "success" : "warning"}
      showIcon
      data-testid="giphy-test-result"
      data-ok="1"
      title={outcome.results.length ? t("globais.giphy.testOk", { count: outcome.results.length, query: TEST_QUERY }) : t("globais.giphy.testEmpty", { query: TEST_QUERY })}
      description={
        outcome.results.length ? (
          <div className="oa-gif-strip">
            {outcome.results.slice(0, 8).map((g) => (
              <img key={g.id} src={g.preview.url} alt={g.title} title={g.title} loading="lazy" data-testid="giphy-test-gif" />
            ))}
            <Typography.Text type="secondary" className="oa-gif-attribution">
              {outcome.attribution}
            </Typography.Text>
          </div>
        ) : undefined
      }
    />
  );
}
