import { useEffect, useState } from "react";
import { ContactPanelSections } from "../../plugins/slots";
import { uiTicketOf } from "../../plugins/attendance-slots";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { Button, Empty, Input, Segmented, Skeleton, Tag, Tooltip } from "antd";
import { CloseOutlined, EyeInvisibleOutlined, LinkOutlined, MailOutlined, PhoneOutlined, TagsOutlined, WalletOutlined, InfoCircleOutlined, FormOutlined, IdcardOutlined } from "@ant-design/icons";
import type { ContactView } from "@openatende/contracts/contact-fields";
import { useRoot } from "../../app/context";
import type { Ticket } from "../../stores/tickets";
import type { Attendance } from "./attendance";
import { ContactAvatar } from "./TicketRow";
import { avatarColor } from "../../ui/person";

/** The contact as GET /contacts/:id answers it (the contact field table's view). */
type ContactFull = ContactView;

/** The right column: the contact (as the API shows it to this user: spec §6 may hide number and e-mail) and the ticket's notes. */
export const ContactPanel = observer(function ContactPanel({ a, ticket, onClose }: { a: Attendance; ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<"contact" | "notes">("contact");
  const thread = a.messages.threads.get(ticket.id);
  const notes = thread?.notes.length ?? 0;
  return (
    <aside className="oa-side" data-testid="contact-panel" aria-label={t("atendimento.contact.title")}>
      <div className="oa-side-head">
        <Segmented
          value={tab}
          onChange={(v) => setTab(v as "contact" | "notes")}
          options={[
            { value: "contact", label: t("atendimento.contact.title") },
            { value: "notes", label: <span data-testid="notes-tab">{t("atendimento.notes.title")}{notes ? ` (${notes})` : ""}</span> },
          ]}
        />
        <Button type="text" shape="circle" icon={<CloseOutlined />} onClick={onClose} aria-label={t("common.close")} data-testid="contact-close" />
      </div>
      <div className="oa-side-body">{tab === "contact" ? <ContactInfo a={a} ticket={ticket} /> : <Notes a={a} ticket={ticket} />}</div>
    </aside>
  );
});

const ContactInfo = observer(function ContactInfo({ a, ticket }: { a: Attendance; ticket: Ticket }) {
  const { t } = useTranslation();
  const root = useRoot();
  const navigate = useNavigate();
  const [c, setC] = useState<ContactFull | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let alive = true;
    setC(null);
    setFailed(false);
    root.api.get<ContactFull>(`/contacts/${ticket.contactId}`, { silent: true }).then(
      (r) => alive && setC(r),
      () => alive && setFailed(true),
    );
    return () => {
      alive = false;
    };
  }, [ticket.contactId]);

  const name = c?.name ?? ticket.contact?.name ?? "";
  const hidden = !!c?.contactInfoHidden || a.hideContactInfo;
  const queue = a.queue(ticket.queueId);
  const holder = a.user(ticket.userId);
  const locale = root.session.locale;

  return (
    <div className="oa-contact" data-testid="contact-info">
      <div className="oa-contact-hero">
        <ContactAvatar id={ticket.contactId} name={name} size={72} group={ticket.isGroup} />
        <strong className="oa-contact-name">{name}</strong>
        {c?.businessName ? <span className="oa-muted">{c.businessName}</span> : null}
        <Button size="small" icon={<LinkOutlined />} onClick={() => navigate(`/contatos?contactId=${ticket.contactId}`)} data-testid="open-contact">
          {t("atendimento.contact.open")}
        </Button>
      </div>
      {!c && !failed ? (
        <Skeleton active paragraph={{ rows: 4 }} title={false} />
      ) : (
        <>
          <dl className="oa-contact-fields">
            <Field icon={<PhoneOutlined />} label={t("atendimento.contact.number")}>
              {hidden ? <HiddenValue /> : (c?.number ?? ticket.contact?.number) || <span className="oa-muted">—</span>}
            </Field>
            <Field icon={<MailOutlined />} label={t("atendimento.contact.email")}>
              {hidden ? <HiddenValue /> : c?.email || <span className="oa-muted">—</span>}
            </Field>
            {c?.instagram ? <Field label="Instagram">{c.instagram}</Field> : null}
            {c?.telegramId ? <Field label="Telegram">{c.telegramId}</Field> : null}
            {c?.website ? <Field label={t("atendimento.contact.website")}>{c.website}</Field> : null}
          </dl>
          <Section icon={<TagsOutlined />} title={t("atendimento.contact.tags")}>
            {c?.tags?.length ? (
              <div className="oa-tags">
                {c.tags.map((x) => (
                  <Tag key={x.id} color={x.color} variant="solid">
                    {x.name}
                  </Tag>
                ))}
              </div>
            ) : (
              <span className="oa-muted oa-small">{t("atendimento.contact.noTags")}</span>
            )}
          </Section>
          <Section icon={<WalletOutlined />} title={t("atendimento.contact.wallet")}>
            {c?.wallet?.length ? (
              <div className="oa-tags">
                {c.wallet.map((id) => (
                  <Tag key={id}>{a.user(id)?.name ?? `#${id}`}</Tag>
                ))}
              </div>
            ) : (
              <span className="oa-muted oa-small">{t("atendimento.contact.noWallet")}</span>
            )}
          </Section>
          <Section icon={<InfoCircleOutlined />} title={t("atendimento.contact.extra")}>
            {c?.additionalInfo?.length ? (
              <dl className="oa-contact-extra">
                {c.additionalInfo.map((x, i) => (
                  <div key={i}>
                    <dt>{x.description}</dt>
                    <dd>{x.info}</dd>
                  </div>
                ))}
              </dl>
            ) : (
              <span className="oa-muted oa-small">{t("atendimento.contact.noExtra")}</span>
            )}
          </Section>
        </>
      )}
      <Section icon={<IdcardOutlined />} title={t("atendimento.contact.ticket")}>
        <dl className="oa-contact-extra">
          <div>
            <dt>{t("atendimento.contact.protocol")}</dt>
            <dd data-testid="ticket-protocol">{ticket.protocol ?? `#${ticket.id}`}</dd>
          </div>
          <div>
            <dt>{t("atendimento.contact.queue")}</dt>
            <dd>
              {queue ? (
                <span className="oa-queue-chip" style={{ ["--chip" as string]: avatarColor(queue.id) }}>
                  <i />
                  {queue.name}
                </span>
              ) : (
                t("atendimento.queue.none")
              )}
            </dd>
          </div>
          <div>
            <dt>{t("atendimento.contact.holder")}</dt>
            <dd>{holder?.name ?? t("atendimento.status.pending")}</dd>
          </div>
          {ticket.createdAt ? (
            <div>
              <dt>{t("atendimento.contact.openedAt")}</dt>
              <dd>{new Date(ticket.createdAt).toLocaleString(locale, { dateStyle: "short", timeStyle: "short" })}</dd>
            </div>
          ) : null}
        </dl>
      </Section>
      <ContactPanelSections contactId={ticket.contactId} ticket={uiTicketOf(ticket)} />
    </div>
  );
});

function HiddenValue() {
  const { t } = useTranslation();
  return (
    <Tooltip title={t("atendimento.contact.hiddenHint")}>
      <span className="oa-muted" data-testid="contact-hidden">
        <EyeInvisibleOutlined /> {t("atendimento.contact.hidden")}
      </span>
    </Tooltip>
  );
}

function Field({ icon, label, children }: { icon?: React.ReactNode; label: string; children: React.ReactNode }) {
  return (
    <div className="oa-field-row">
      <dt>
        {icon} {label}
      </dt>
      <dd>{children}</dd>
    </div>
  );
}

function Section({ icon, title, children }: { icon: React.ReactNode; title: string; children: React.ReactNode }) {
  return (
    <section className="oa-side-section">
      <h4>
        {icon} {title}
      </h4>
      {children}
    </section>
  );
}

const Notes = observer(function Notes({ a, ticket }: { a: Attendance; ticket: Ticket }) {
  const { t } = useTranslation();
  const root = useRoot();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const thread = a.messages.threads.get(ticket.id);
  useEffect(() => {
    a.messages.thread(ticket.id);
    void a.messages.loadNotes(ticket.id).catch(() => undefined);
  }, [ticket.id]);
  const notes = thread?.notes ?? [];
  const locale = root.session.locale;

  async function add() {
    const body = text.trim();
    if (!body) return;
    setBusy(true);
    try {
      await a.messages.addNote(ticket.id, body);
      setText("");
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="oa-notes" data-testid="notes">
      <div className="oa-notes-add">
        <Input.TextArea
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t("atendimento.notes.placeholder")}
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={10000}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void add();
          }}
          data-testid="note-input"
        />
        <Button type="primary" icon={<FormOutlined />} onClick={() => void add()} loading={busy} disabled={!text.trim()} data-testid="note-add">
          {t("atendimento.notes.add")}
        </Button>
      </div>
      {!thread?.notesLoaded ? (
        <Skeleton active paragraph={{ rows: 3 }} title={false} />
      ) : notes.length ? (
        <ol className="oa-notes-list">
          {[...notes].reverse().map((n) => (
            <li key={n.id} className="oa-note" data-testid="note">
              <div className="oa-note-head">
                <strong>{a.user(n.userId)?.name ?? t("atendimento.message.agent")}</strong>
                <span className="oa-muted oa-small">{new Date(n.createdAt).toLocaleString(locale, { dateStyle: "short", timeStyle: "short" })}</span>
              </div>
              <p>{n.body}</p>
            </li>
          ))}
        </ol>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("atendimento.notes.empty")} />
      )}
    </div>
  );
});
