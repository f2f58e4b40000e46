/**
 * /agendamentos: the tenant's appointments on a FullCalendar 7 calendar with month, week, day
 * and list views, filtered by user; a click on a day or hour books one there, a click on an
 * appointment edits it, dragging one moves it (the server checks the move again — availability,
 * conflicts, the past — and a refused move snaps back with the server's notice). The visible
 * range downloads as an .ics file. The calendar follows the server's `appointments.changed`
 * pushes (a message sent by the scheduler, another user's booking).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { Button, Card, Select, Space, Typography } from "antd";
import { DownloadOutlined, PlusOutlined } from "@ant-design/icons";
import FullCalendar from "@fullcalendar/react";
import dayGridPlugin from "@fullcalendar/react/daygrid";
import timeGridPlugin from "@fullcalendar/react/timegrid";
import listPlugin from "@fullcalendar/react/list";
import interactionPlugin from "@fullcalendar/react/interaction";
import classicTheme from "@fullcalendar/react/themes/classic";
import ptBr from "@fullcalendar/react/locales/pt-br";
import esLocale from "@fullcalendar/react/locales/es";
import ruLocale from "@fullcalendar/react/locales/ru";
import "@fullcalendar/react/skeleton.css";
import "@fullcalendar/react/themes/classic/theme.css";
import "@fullcalendar/react/themes/classic/palette.css";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import AppointmentForm from "./AppointmentForm";
import { CHANGED_EVENT, STATUS_COLOURS, type Appointment, type Named, type Options } from "./types";

const LOCALES: Record<string, string> = { "pt-BR": "pt-br", en: "en", es: "es", ru: "ru" };

type Range = { start: Date; end: Date };
type FormState = { editing: Appointment | null; start: number | null };

export default function CalendarPage({ runtime }: { runtime: ShellRuntime }) {
  const t = runtime.t;
  const [userId, setUserId] = useState<number | null>(null);
  const [users, setUsers] = useState<Named[]>([]);
  const [rows, setRows] = useState<Appointment[]>([]);
  const [range, setRange] = useState<Range | null>(null);
  const [form, setForm] = useState<FormState | null>(null);
  const seq = useRef(0);

  useEffect(() => {
    runtime.api
      .get<Options>("/appointments/options", { silent: true })
      .then((o) => setUsers(o.users))
      .catch(() => undefined);
  }, [runtime]);

  const load = useCallback(async () => {
    if (!range) return;
    const mine = ++seq.current;
    try {
      const r = await runtime.api.get<Appointment[]>("/appointments", { query: { from: range.start.toISOString(), to: range.end.toISOString(), userId: userId ?? undefined } });
      if (mine === seq.current) setRows(r);
    } catch (err) {
      runtime.notify.error(err);
    }
  }, [runtime, range, userId]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => runtime.realtime.on(CHANGED_EVENT, () => void load()), [runtime, load]);

  const downloadIcs = async () => {
    try {
      const text = await runtime.api.get<string>("/appointments/ics", { query: { from: range?.start.toISOString(), to: range?.end.toISOString(), userId: userId ?? undefined } });
      const url = URL.createObjectURL(new Blob([text], { type: "text/calendar;charset=utf-8" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = "agendamentos.ics";
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      runtime.notify.error(err);
    }
  };

  const events = rows.map((a) => ({
    id: String(a.id),
    title: [a.contactName, a.serviceName].filter(Boolean).join(" · ") || a.message,
    start: a.startAt,
    end: a.endAt,
    // Only an appointment still ahead moves.
    editable: a.status === "scheduled" && Date.parse(a.startAt) > Date.now(),
    color: STATUS_COLOURS[a.status],
    extendedProps: { appointment: a },
  }));

  return (
    <div style={{ padding: 16 }} data-testid="appointments-page">
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 12 }} wrap>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t("title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("subtitle")}</Typography.Text>
        </div>
        <Space wrap>
          <Select
            style={{ minWidth: 220 }}
            allowClear
            placeholder={t("allUsers")}
            value={userId ?? undefined}
            onChange={(v?: number) => setUserId(v ?? null)}
            options={users.map((u) => ({ value: u.id, label: u.name }))}
            data-testid="appointments-user-filter"
          />
          <Button icon={<DownloadOutlined />} onClick={() => void downloadIcs()} data-testid="appointments-ics">
            {t("downloadIcs")}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ editing: null, start: null })} data-testid="appointments-new">
            {t("new")}
          </Button>
        </Space>
      </Space>
      <Card size="small" data-testid="appointments-calendar">
        <FullCalendar
          plugins={[classicTheme, dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin]}
          initialView="timeGridWeek"
          locales={[ptBr, esLocale, ruLocale]}
          locale={LOCALES[runtime.locale] ?? "pt-br"}
          headerToolbar={{ start: "prev,next today", center: "title", end: "dayGridMonth,timeGridWeek,timeGridDay,listWeek" }}
          height="auto"
          nowIndicator
          allDaySlot={false}
          slotMinTime="06:00:00"
          slotMaxTime="23:00:00"
          events={events}
          eventDurationEditable={false}
          // FullCalendar 7's class names are generated: the tests and the shell's styles find an appointment by these.
          eventDidMount={(info) => {
            info.el.setAttribute("data-testid", `appointment-event-${info.event.id}`);
            info.el.setAttribute("data-start", (info.event.extendedProps.appointment as Appointment).startAt);
          }}
          datesSet={(info) => setRange((r) => (r && r.start.getTime() === info.start.getTime() && r.end.getTime() === info.end.getTime() ? r : { start: info.start, end: info.end }))}
          dateClick={(info) => setForm({ editing: null, start: info.date.getTime() > Date.now() ? info.date.getTime() : null })}
          eventClick={(info) => setForm({ editing: info.event.extendedProps.appointment as Appointment, start: null })}
          eventDrop={(info) => {
            const a = info.event.extendedProps.appointment as Appointment;
            const start = info.event.start;
            if (!start) return info.revert();
            runtime.api
              .patch<Appointment>("/appointments", { id: a.id, startAt: start.toISOString() })
              .then(() => {
                runtime.notify.success(t("moved"));
                void load();
              })
              .catch((err) => {
                // Refused (outside availability, a conflict, the past): back where it was.
                info.revert();
                runtime.notify.error(err);
              });
          }}
        />
      </Card>
      {form ? (
        <AppointmentForm
          runtime={runtime}
          editing={form.editing}
          initialStart={form.start}
          initialUserId={userId}
          onClose={() => setForm(null)}
          onSaved={() => {
            setForm(null);
            void load();
          }}
          onDeleted={() => {
            setForm(null);
            void load();
          }}
        />
      ) : null}
    </div>
  );
}
