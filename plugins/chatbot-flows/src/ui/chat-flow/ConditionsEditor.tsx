/** A condition node's tests (keyword, regex, business hours open/closed, contact field), joined by all or any. */
import { Button, Checkbox, Input, Radio, Select, Space } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import type { Condition, NodeData } from "../../model";
import { useBuilder } from "./context";
import { Field, ItemBox, move } from "./Field";

type CondData = Extract<NodeData, { type: "condition" }>;
const TYPES: Condition["type"][] = ["keyword", "regex", "businessHours", "contactField"];
const FIELDS = ["name", "number", "email"] as const;
const OPERATORS = ["equals", "contains", "empty", "notEmpty"] as const;

function fresh(type: Condition["type"]): Condition {
  switch (type) {
    case "keyword":
      return { type, values: [] };
    case "regex":
      return { type, pattern: "", flags: "i" };
    case "businessHours":
      return { type, open: true };
    case "contactField":
      return { type, field: "name", operator: "contains", value: "" };
  }
}

/** The browser's opinion of a pattern: null when it compiles. */
function regexError(pattern: string, flags?: string): string | null {
  if (!pattern) return null;
  try {
    new RegExp(pattern, flags);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

function OneCondition({ c, onChange }: { c: Condition; onChange: (c: Condition) => void }) {
  const b = useBuilder();
  switch (c.type) {
    case "keyword":
      return (
        <>
          <Field label={b.tr("keywords")} hint={b.tr("keywordsHint")}>
            <Select mode="tags" style={{ width: "100%" }} value={c.values} onChange={(values: string[]) => onChange({ ...c, values })} tokenSeparators={[","]} open={false} data-testid="flow-keywords" />
          </Field>
          <Checkbox checked={!!c.exact} onChange={(e) => onChange({ ...c, exact: e.target.checked || undefined })}>
            {b.tr("keywordExact")}
          </Checkbox>
        </>
      );
    case "regex": {
      const err = regexError(c.pattern, c.flags);
      return (
        <Space.Compact style={{ width: "100%" }}>
          <Input value={c.pattern} onChange={(e) => onChange({ ...c, pattern: e.target.value })} placeholder={b.tr("regexPattern")} status={err ? "error" : undefined} title={err ?? undefined} />
          <Input style={{ width: 70 }} value={c.flags ?? ""} onChange={(e) => onChange({ ...c, flags: [...new Set(e.target.value.replace(/[^imsu]/g, ""))].join("") || undefined })} placeholder={b.tr("regexFlags")} />
        </Space.Compact>
      );
    }
    case "businessHours":
      return (
        <Radio.Group value={c.open} onChange={(e) => onChange({ ...c, open: e.target.value })}>
          <Radio value={true}>{b.tr("hoursOpen")}</Radio>
          <Radio value={false}>{b.tr("hoursClosed")}</Radio>
        </Radio.Group>
      );
    case "contactField":
      return (
        <Space wrap>
          <Select style={{ width: 110 }} value={c.field} options={FIELDS.map((f) => ({ value: f, label: b.tr(`field.${f}`) }))} onChange={(field) => onChange({ ...c, field })} />
          <Select style={{ width: 130 }} value={c.operator} options={OPERATORS.map((o) => ({ value: o, label: b.tr(`op.${o}`) }))} onChange={(operator) => onChange({ ...c, operator })} />
          {c.operator === "equals" || c.operator === "contains" ? <Input style={{ width: 150 }} value={c.value ?? ""} onChange={(e) => onChange({ ...c, value: e.target.value })} /> : null}
        </Space>
      );
  }
}

export function ConditionsEditor({ data, onChange }: { data: CondData; onChange: (d: CondData) => void }) {
  const b = useBuilder();
  const labels = { up: b.tr("moveUp"), down: b.tr("moveDown"), remove: b.tr("remove") };
  const set = (conditions: Condition[]) => onChange({ ...data, conditions });
  return (
    <div data-testid="flow-conditions">
      <Field label={b.tr("matchLabel")} hint={b.tr("conditionHint")}>
        <Radio.Group value={data.match} onChange={(e) => onChange({ ...data, match: e.target.value })} optionType="button" size="small">
          <Radio value="all">{b.tr("matchAll")}</Radio>
          <Radio value="any">{b.tr("matchAny")}</Radio>
        </Radio.Group>
      </Field>
      {data.conditions.map((c, i) => (
        <ItemBox
          key={i}
          labels={labels}
          title={
            <Select
              size="small"
              variant="borderless"
              value={c.type}
              style={{ minWidth: 160 }}
              options={TYPES.map((x) => ({ value: x, label: b.tr(`cond.${x}`) }))}
              onChange={(type) => set(data.conditions.map((y, j) => (j === i ? fresh(type) : y)))}
              data-testid="flow-condition-type"
            />
          }
          onUp={i > 0 ? () => set(move(data.conditions, i, -1)) : undefined}
          onDown={i < data.conditions.length - 1 ? () => set(move(data.conditions, i, 1)) : undefined}
          onRemove={() => set(data.conditions.filter((_, j) => j !== i))}
        >
          <OneCondition c={c} onChange={(x) => set(data.conditions.map((y, j) => (j === i ? x : y)))} />
        </ItemBox>
      ))}
      <Button size="small" icon={<PlusOutlined />} onClick={() => set([...data.conditions, fresh("keyword")])} data-testid="flow-add-condition">
        {b.tr("addCondition")}
      </Button>
    </div>
  );
}
