/**
 * A message node: its interactions in order — texts (placeholders filled), files (sent as
 * media through the core), and pauses. A pause is a scheduler job (timers.ts), never a sleep:
 * the node waits as `delay` and the job's turn goes on from the next interaction.
 */
import type { Turn } from "../turn";
import { go, type Next, type NodeOf } from "./types";

export async function runMessage(turn: Turn, node: NodeOf<"message">, from = 0): Promise<Next> {
  const list = node.data.interactions;
  for (let i = from; i < list.length; i++) {
    const it = list[i];
    if (it.type === "text") await turn.send(it.text);
    else if (it.type === "media") await turn.sendMedia(it.media, it.caption);
    else if (it.seconds > 0 && i + 1 < list.length) {
      // A pause with nothing after it in this node delays nothing: the next node follows at once.
      turn.s.at = node.id;
      if (turn.s.openStep < 0) turn.open(node.id, `delay ${it.seconds} s`);
      turn.s.wait = "delay";
      turn.s.resume = i + 1;
      turn.s.waitDue = await turn.deps.timers.scheduleDelay(turn, i + 1, it.seconds);
      return "wait";
    }
  }
  if (turn.s.openStep >= 0 && turn.s.at === node.id) turn.finishOpen("success");
  else turn.step(node.id, "success");
  turn.s.wait = null;
  turn.s.waitDue = 0;
  turn.s.resume = 0;
  return go();
}
