/**
 * A menu node: buttons (up to 3 options) or a list (sections with rows), with title, text,
 * footer and the list's button text. Every option or row is an output of the node.
 */
import { Button, Input, Radio } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import type { MenuOption, MenuSection, NodeData } from "../../model";
import { MAX_BUTTONS, MAX_MENU_ROWS } from "../../flows/node-data";
import { newId } from "./convert";
import { useBuilder } from "./context";
import { Field, ItemBox, move } from "./Field";

type MenuData = Extract<NodeData, { type: "menu" }>;

function OptionRows({ rows, onChange, max, testid }: { rows: MenuOption[]; onChange: (rows: MenuOption[]) => void; max: number; testid: string }) {
  const b = useBuilder();
  const labels = { up: b.tr("moveUp"), down: b.tr("moveDown"), remove: b.tr("remove") };
  const set = (i: number, o: MenuOption) => onChange(rows.map((x, j) => (j === i ? o : x)));
  return (
    <div data-testid={testid}>
      {rows.map((o, i) => (
        <ItemBox
          key={o.id}
          testid="flow-menu-option"
          title={b.tr("optionN", { n: i + 1 })}
          labels={labels}
          onUp={i > 0 ? () => onChange(move(rows, i, -1)) : undefined}
          onDown={i < rows.length - 1 ? () => onChange(move(rows, i, 1)) : undefined}
          onRemove={() => onChange(rows.filter((_, j) => j !== i))}
        >
          <Input value={o.title} maxLength={100} onChange={(e) => set(i, { ...o, title: e.target.value })} placeholder={b.tr("optionTitle")} data-testid="flow-option-title" />
          <Input
            style={{ marginTop: 6 }}
            value={o.description ?? ""}
            maxLength={200}
            onChange={(e) => set(i, { ...o, description: e.target.value || undefined })}
            placeholder={b.tr("optionDescription")}
          />
        </ItemBox>
      ))}
      <Button size="small" icon={<PlusOutlined />} disabled={rows.length >= max} onClick={() => onChange([...rows, { id: newId("opt"), title: "" }])} data-testid="flow-add-option">
        {b.tr("addOption")}
      </Button>
    </div>
  );
}

export function MenuEditor({ data, onChange }: { data: MenuData; onChange: (d: MenuData) => void }) {
  const b = useBuilder();
  const labels = { up: b.tr("moveUp"), down: b.tr("moveDown"), remove: b.tr("remove") };
  const setSections = (sections: MenuSection[]) => onChange({ ...data, sections });
  const toList = () => onChange({ ...data, style: "list", sections: data.sections.length ? data.sections : [{ title: "", rows: data.options.map((o) => ({ ...o })) }] });
  const toButtons = () => onChange({ ...data, style: "buttons", options: data.options.length ? data.options : data.sections.flatMap((s) => s.rows).slice(0, MAX_BUTTONS) });
  return (
    <div data-testid="flow-menu-editor">
      <Field label={b.tr("menuStyle")} hint={b.tr(data.style === "list" ? "menuListHint" : "menuButtonsHint")}>
        <Radio.Group value={data.style} optionType="button" size="small" onChange={(e) => (e.target.value === "list" ? toList() : toButtons())} data-testid="flow-menu-style">
          <Radio value="buttons">{b.tr("styleButtons")}</Radio>
          <Radio value="list">{b.tr("styleList")}</Radio>
        </Radio.Group>
      </Field>
      <Field label={b.tr("menuTitle")}>
        <Input value={data.title} maxLength={60} onChange={(e) => onChange({ ...data, title: e.target.value })} data-testid="flow-menu-title" />
      </Field>
      <Field label={b.tr("menuText")}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} value={data.text} maxLength={1024} onChange={(e) => onChange({ ...data, text: e.target.value })} data-testid="flow-menu-text" />
      </Field>
      <Field label={b.tr("menuFooter")}>
        <Input value={data.footer ?? ""} maxLength={60} onChange={(e) => onChange({ ...data, footer: e.target.value || undefined })} />
      </Field>
      {data.style === "list" ? (
        <>
          <Field label={b.tr("menuButtonText")}>
            <Input value={data.buttonText ?? ""} maxLength={20} onChange={(e) => onChange({ ...data, buttonText: e.target.value || undefined })} />
          </Field>
          {data.sections.map((s, i) => (
            <ItemBox
              key={i}
              testid="flow-menu-section"
              title={b.tr("sectionN", { n: i + 1 })}
              labels={labels}
              onUp={i > 0 ? () => setSections(move(data.sections, i, -1)) : undefined}
              onDown={i < data.sections.length - 1 ? () => setSections(move(data.sections, i, 1)) : undefined}
              onRemove={data.sections.length > 1 ? () => setSections(data.sections.filter((_, j) => j !== i)) : undefined}
            >
              <Input style={{ marginBottom: 8 }} value={s.title} maxLength={24} placeholder={b.tr("sectionTitle")} onChange={(e) => setSections(data.sections.map((x, j) => (j === i ? { ...x, title: e.target.value } : x)))} />
              <OptionRows
                testid="flow-section-rows"
                rows={s.rows}
                max={MAX_MENU_ROWS - data.sections.reduce((n, x, j) => (j === i ? n : n + x.rows.length), 0)}
                onChange={(rows) => setSections(data.sections.map((x, j) => (j === i ? { ...x, rows } : x)))}
              />
            </ItemBox>
          ))}
          <Button size="small" icon={<PlusOutlined />} onClick={() => setSections([...data.sections, { title: "", rows: [{ id: newId("opt"), title: "" }] }])} data-testid="flow-add-section">
            {b.tr("addSection")}
          </Button>
        </>
      ) : (
        <Field label={b.tr("options")}>
          <OptionRows testid="flow-menu-options" rows={data.options} max={MAX_BUTTONS} onChange={(options) => onChange({ ...data, options })} />
        </Field>
      )}
      <Field label={b.tr("retryMessage")} hint={b.tr("retryHint")}>
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} value={data.retryMessage ?? ""} maxLength={1024} onChange={(e) => onChange({ ...data, retryMessage: e.target.value || undefined })} />
      </Field>
    </div>
  );
}
