/**
 * A file chooser whose button speaks the screen's language (the browser's own input shows its
 * UI language): a hidden `<input type="file">` (tests set files on it) behind a button.
 */
import { useRef } from "react";
import { Button } from "antd";

export function FilePick(props: { label: string; accept?: string; disabled?: boolean; onPick(file: File | undefined): void; testId: string }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        hidden
        accept={props.accept}
        onChange={(e) => {
          props.onPick(e.target.files?.[0]);
          e.target.value = "";
        }}
        data-testid={props.testId}
      />
      <Button disabled={props.disabled} onClick={() => input.current?.click()} data-testid={`${props.testId}-button`}>
        {props.label}
      </Button>
    </>
  );
}
