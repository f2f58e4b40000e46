import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { ClosingDialogHost } from "../../plugins/attendance-slots";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate, useParams } from "react-router-dom";
import { Button } from "antd";
import { ClockCircleOutlined, CustomerServiceOutlined, MessageOutlined, PlusOutlined, UserOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { attendanceOf, type Attendance } from "./attendance";
import { ChatList } from "./ChatList";
import { ChatPane } from "./ChatPane";
import { NewChat } from "./NewChat";
import "./atendimento.css";

/**
 * Keeps the screen exactly as tall as the window below where it starts (whatever the layout
 * above it), so the list and the messages scroll inside their columns and never the page.
 */
function useFillHeight(ref: React.RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      const parent = el.parentElement;
      const pad = parent ? parseFloat(getComputedStyle(parent).paddingBottom) || 0 : 0;
      el.style.height = `${Math.max(420, window.innerHeight - top - pad)}px`;
    };
    fit();
    const ro = new ResizeObserver(fit);
    if (el.parentElement) ro.observe(el.parentElement);
    window.addEventListener("resize", fit);
    return () => {
      ro.disconnect();
      window.removeEventListener("resize", fit);
    };
  }, []);
}

/** /atendimento: the chat list, the open chat and the contact panel (spec §2). */
export default observer(function AtendimentoPage() {
  const root = useRoot();
  const a = attendanceOf(root);
  const params = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  const ticketId = params.ticketId && /^\d+$/.test(params.ticketId) ? Number(params.ticketId) : null;
  const contactsMode = /\/atendimento\/contatos\/?$/.test(pathname);
  const [sideOpen, setSideOpen] = useState(() => typeof window !== "undefined" && window.innerWidth >= 1500);
  useFillHeight(ref);

  useEffect(() => {
    void a.loadDirectory();
    if (!a.tickets.loaded) void a.tickets.load();
  }, [a]);

  useEffect(() => {
    if (!ticketId) void a.openTicketById(null);
  }, [ticketId]);
  useEffect(() => () => void a.openTicketById(null), [a]);

  // Spec §2: the chat already open is not opened again.
  const open = useCallback(
    (id: number) => {
      if (id === ticketId) {
        root.ui.notify({ kind: "info", title: root.t("common.sameChat") });
        return;
      }
      navigate(`/atendimento/${id}`);
    },
    [ticketId],
  );
  const close = useCallback(() => navigate("/atendimento"), []);

  return (
    <div ref={ref} className={`oa-att${ticketId || contactsMode ? " has-chat" : ""}`} data-page="AtendimentoPage">
      <ChatList a={a} activeId={ticketId} onOpen={open} onNewChat={() => navigate("/atendimento/contatos")} />
      {contactsMode ? (
        <NewChat a={a} onOpen={open} onClose={close} />
      ) : ticketId ? (
        <ChatPane key="pane" a={a} ticketId={ticketId} onClose={close} sideOpen={sideOpen} setSideOpen={setSideOpen} />
      ) : (
        <Welcome a={a} onNewChat={() => navigate("/atendimento/contatos")} />
      )}
      <ClosingDialogHost />
    </div>
  );
});

/** No chat selected: what waits for the user, and how to start. */
const Welcome = observer(function Welcome({ a, onNewChat }: { a: Attendance; onNewChat: () => void }) {
  const { t } = useTranslation();
  const root = useRoot();
  const me = root.session.userId;
  const items = a.tickets.tab === "open" ? a.tickets.items : [];
  const waiting = items.filter((x) => x.status === "pending").length;
  const mine = items.filter((x) => x.status === "open" && x.userId === me).length;
  const more = a.tickets.hasMore ? "+" : "";
  return (
    <section className="oa-pane oa-pane-empty oa-welcome" data-testid="chat-empty">
      <div className="oa-welcome-illus" aria-hidden>
        <span className="oa-welcome-bubble is-a">
          <MessageOutlined />
        </span>
        <span className="oa-welcome-bubble is-b">
          <CustomerServiceOutlined />
        </span>
      </div>
      <h2>{t("atendimento.pane.emptyTitle", { name: root.session.username.split(" ")[0] || "" })}</h2>
      <p className="oa-muted">{t("atendimento.pane.emptyDetail")}</p>
      {a.tickets.tab === "open" && a.tickets.loaded ? (
        <div className="oa-welcome-stats">
          <div>
            <ClockCircleOutlined />
            <strong data-testid="stat-waiting">
              {waiting}
              {waiting ? more : ""}
            </strong>
            <span>{t("atendimento.pane.waiting")}</span>
          </div>
          <div>
            <UserOutlined />
            <strong>
              {mine}
              {mine ? more : ""}
            </strong>
            <span>{t("atendimento.pane.mine")}</span>
          </div>
        </div>
      ) : null}
      <Button icon={<PlusOutlined />} onClick={onNewChat}>
        {t("atendimento.list.newChat")}
      </Button>
      <p className="oa-muted oa-small oa-welcome-tip">{t("atendimento.pane.tip")}</p>
    </section>
  );
});
