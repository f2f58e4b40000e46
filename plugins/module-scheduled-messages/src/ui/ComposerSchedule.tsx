/**
 * The composer's "schedule message" button: the schedule dialog for the open ticket, with the
 * text typed so far; once saved the composer is emptied (the text now waits for its date).
 */
import type { ComposerActionProps } from "@openatende/plugin-sdk/ui";
import ScheduleForm from "./ScheduleForm";

export default function ComposerSchedule({ runtime, ticket, text, setText, onClose }: ComposerActionProps) {
  return (
    <ScheduleForm
      runtime={runtime}
      ticket={ticket}
      initialBody={text}
      onClose={onClose}
      onSaved={() => {
        setText("");
        onClose();
      }}
    />
  );
}
