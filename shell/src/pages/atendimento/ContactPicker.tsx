import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Empty, Input, Spin } from "antd";
import { SearchOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { CONTACT_SEARCH_MIN } from "../../ui/constants";
import { ContactAvatar } from "./TicketRow";

export interface ContactLite {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
}

/** A searchable list of the tenant's contacts (GET /contacts), for forwarding and new chats. */
export function ContactPicker({ selected, onPick, autoFocus, pageSize = 30 }: { selected?: number | null; onPick: (c: ContactLite) => void; autoFocus?: boolean; pageSize?: number }) {
  const { t } = useTranslation();
  const root = useRoot();
  const [q, setQ] = useState("");
  const [rows, setRows] = useState<ContactLite[]>([]);
  const [loading, setLoading] = useState(false);
  const req = useRef(0);

  useEffect(() => {
    const term = q.trim();
    if (term.length > 0 && term.length < CONTACT_SEARCH_MIN) return;
    const id = ++req.current;
    const h = setTimeout(async () => {
      setLoading(true);
      try {
        const r = await root.api.get<{ contacts: ContactLite[] }>("/contacts", { query: { searchParam: term || undefined, pageSize } });
        if (id === req.current) setRows(r.contacts);
      } catch {
        if (id === req.current) setRows([]);
      } finally {
        if (id === req.current) setLoading(false);
      }
    }, term ? 350 : 0);
    return () => clearTimeout(h);
  }, [q]);

  return (
    <div className="oa-contact-picker">
      <Input
        allowClear
        autoFocus={autoFocus}
        prefix={<SearchOutlined />}
        placeholder={t("atendimento.contacts.search")}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        data-testid="contact-search"
      />
      {q.trim().length > 0 && q.trim().length < CONTACT_SEARCH_MIN ? <div className="oa-hint">{t("atendimento.list.searchMin", { min: CONTACT_SEARCH_MIN })}</div> : null}
      <div className="oa-contact-picker-list" role="listbox">
        {loading && !rows.length ? (
          <div className="oa-center">
            <Spin size="small" />
          </div>
        ) : !rows.length ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("atendimento.contacts.none")} />
        ) : (
          rows.map((c) => (
            <button type="button" role="option" aria-selected={selected === c.id} key={c.id} className={`oa-contact-item${selected === c.id ? " is-active" : ""}`} onClick={() => onPick(c)} data-testid="contact-item">
              <ContactAvatar id={c.id} name={c.name} size={34} />
              <span>
                <strong>{c.name}</strong>
                <small className="oa-muted">{c.number || c.email || t("atendimento.contact.noNumber")}</small>
              </span>
            </button>
          ))
        )}
      </div>
    </div>
  );
}
