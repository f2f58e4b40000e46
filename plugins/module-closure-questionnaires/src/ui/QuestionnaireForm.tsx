import { useState } from "react";
import { Alert, Button, Checkbox, Input, Modal, Space } from "antd";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { QuestionEditor, newQuestion, type DraftQuestion } from "./QuestionEditor";
import type { QueueOption } from "./SettingsPage";
import type { Questionnaire } from "./types";

/** The questionnaire's modal: name, description, active, and its questions in order. */
export function QuestionnaireForm({ runtime, queues, value, onClose, onSaved }: { runtime: ShellRuntime; queues: QueueOption[]; value: Questionnaire | null; onClose(): void; onSaved(): void }) {
  const t = runtime.t;
  const [name, setName] = useState(value?.name ?? "");
  const [description, setDescription] = useState(value?.description ?? "");
  const [active, setActive] = useState(value?.active ?? true);
  const [questions, setQuestions] = useState<DraftQuestion[]>(() => (value ? value.questions.map((q) => ({ ...q, key: q.id })) : [newQuestion()]));
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);

  const problem = !name.trim() ? t("form.nameRequired") : questions.length === 0 ? t("form.noQuestions") : null;
  const move = (n: number, by: number) =>
    setQuestions((qs) => {
      const next = [...qs];
      const [q] = next.splice(n, 1);
      next.splice(n + by, 0, q);
      return next;
    });

  const save = async () => {
    setTried(true);
    if (problem) return;
    setSaving(true);
    const body = {
      name: name.trim(),
      description: description.trim(),
      active,
      questions: questions.map(({ key: _key, ...q }) => q),
    };
    try {
      if (value) await runtime.api.put("/closure-questionnaires", { id: value.id, ...body }, { successNotice: true });
      else await runtime.api.post("/closure-questionnaires", body, { successNotice: true });
      onSaved();
    } catch (err) {
      runtime.notify.error(err);
      setSaving(false);
    }
  };

  return (
    <Modal open width={820} title={t(value ? "form.titleEdit" : "form.titleNew")} okText={t("form.save")} cancelText={t("form.cancel")} onOk={save} onCancel={onClose} confirmLoading={saving} okButtonProps={{ "data-testid": "cq-save" } as never}>
      <div data-testid="cq-form">
        <Space direction="vertical" style={{ width: "100%" }}>
          <label>
            {t("form.name")}
            <Input data-testid="cq-name" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} status={tried && !name.trim() ? "error" : undefined} />
          </label>
          <label>
            {t("form.description")}
            <Input.TextArea data-testid="cq-description" value={description} maxLength={500} autoSize={{ minRows: 1, maxRows: 4 }} onChange={(e) => setDescription(e.target.value)} />
          </label>
          <Checkbox checked={active} onChange={(e) => setActive(e.target.checked)} data-testid="cq-form-active">
            {t("form.active")}
          </Checkbox>
          <b>{t("form.questions")}</b>
          {questions.map((q, n) => (
            <QuestionEditor
              key={q.key}
              runtime={runtime}
              queues={queues}
              index={n}
              count={questions.length}
              value={q}
              onChange={(next) => setQuestions((qs) => qs.map((x, k) => (k === n ? next : x)))}
              onMove={(by) => move(n, by)}
              onRemove={() => setQuestions((qs) => qs.filter((_, k) => k !== n))}
            />
          ))}
          <Button onClick={() => setQuestions((qs) => [...qs, newQuestion()])} data-testid="cq-add-question">
            {t("form.addQuestion")}
          </Button>
          {tried && problem ? <Alert type="error" showIcon message={problem} /> : null}
        </Space>
      </div>
    </Modal>
  );
}

