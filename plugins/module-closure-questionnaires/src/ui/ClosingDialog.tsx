import { useEffect, useState } from "react";
import { Form, Modal, Spin, Typography } from "antd";
import type { ClosingDialogProps } from "@openatende/plugin-sdk/ui";
import { AnswerField } from "./AnswerField";
import type { AnswerValue, Questionnaire } from "./types";

type Asked = Questionnaire & { answers: Record<string, AnswerValue> };
const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "") || (Array.isArray(v) && v.length === 0);

/**
 * Asked when an agent resolves a ticket: the questionnaires of the ticket's queue, their
 * answers sent to the plugin before the close goes on (the server refuses the close while a
 * required one is missing, whatever this dialog does). A ticket whose queue has none, or a
 * failed read, lets the close go on at once: the server's check still holds.
 */
export function ClosingDialog({ runtime, ticket, done, cancel }: ClosingDialogProps) {
  const t = runtime.t;
  const [asked, setAsked] = useState<Asked[] | null>(null);
  const [values, setValues] = useState<Record<number, Record<string, AnswerValue | undefined>>>({});
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    runtime.api.get<{ questionnaires: Asked[] }>("/closure-questionnaires/ticket", { query: { ticketId: ticket.id }, silent: true }).then(
      (r) => {
        if (!live) return;
        if (!r.questionnaires.length) return done();
        setValues(Object.fromEntries(r.questionnaires.map((qn) => [qn.id, { ...qn.answers }])));
        setAsked(r.questionnaires);
      },
      () => live && done(),
    );
    return () => void (live = false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ticket.id]);

  if (!asked) return <Spin style={{ position: "fixed", inset: 0, margin: "auto" }} />;

  const missing = asked.flatMap((qn) => qn.questions.filter((q) => q.required && blank(values[qn.id]?.[q.id])).map((q) => q.id));
  const submit = async () => {
    setTried(true);
    if (missing.length) return;
    setSaving(true);
    try {
      await runtime.api.post("/closure-questionnaires/answers", { ticketId: ticket.id, answers: asked.map((qn) => ({ questionnaireId: qn.id, values: values[qn.id] ?? {} })) });
      done();
    } catch (err) {
      runtime.notify.error(err);
      setSaving(false);
    }
  };

  return (
    <Modal open title={t("dialog.title")} okText={t("dialog.confirm")} cancelText={t("dialog.cancel")} onOk={submit} onCancel={cancel} confirmLoading={saving} okButtonProps={{ "data-testid": "cq-dialog-ok" } as never} destroyOnHidden>
      <div data-testid="cq-dialog">
        {asked.map((qn) => (
          <div key={qn.id} style={{ marginBottom: 12 }}>
            {asked.length > 1 || qn.description ? (
              <Typography.Paragraph>
                <b>{qn.name}</b>
                {qn.description ? <span style={{ display: "block", color: "#666" }}>{qn.description}</span> : null}
              </Typography.Paragraph>
            ) : null}
            <Form layout="vertical">
              {qn.questions.map((q) => {
                const bad = tried && missing.includes(q.id);
                return (
                  <Form.Item key={q.id} label={q.question} required={q.required} validateStatus={bad ? "error" : undefined} help={bad ? t("dialog.required") : undefined}>
                    <AnswerField q={q} value={values[qn.id]?.[q.id]} placeholder={t("dialog.choose")} onChange={(v) => setValues((s) => ({ ...s, [qn.id]: { ...s[qn.id], [q.id]: v } }))} />
                  </Form.Item>
                );
              })}
            </Form>
          </div>
        ))}
      </div>
    </Modal>
  );
}
