/** Typebot's bubbles and inputs as a channel's customer reads them (render.ts). */
import { bubbleOut, choicesOf, isEnd, isRetry, mapReply, markdownToText, menuText, richTextToText } from "./render";

const p = (...children: unknown[]) => ({ type: "p", children });

describe("richText → WhatsApp-style text", () => {
  it("keeps paragraphs as lines, bold as *x*, italic as _x_, strike as ~x~, marks outside spaces", () => {
    const rich = [p({ text: "Olá " }, { text: "Ana ", bold: true }, { text: "tudo bem?", italic: true }), p({ text: "antigo", strikethrough: true }), p({ text: "" })];
    expect(richTextToText(rich)).toBe("Olá *Ana* _tudo bem?_\n~antigo~");
  });

  it("writes a link as 'text (url)', a bare link as its URL, and reads inline variables and lists", () => {
    const rich = [
      p({ text: "Veja " }, { type: "a", url: "https://x.com/a", children: [{ text: "a ajuda" }] }, { text: " ou " }, { type: "a", url: "https://x.com/b", children: [{ text: "https://x.com/b" }] }),
      p({ text: "Nome: " }, { type: "inline-variable", children: [p({ text: "Ana" })] }),
      { type: "ul", children: [{ type: "li", children: [p({ text: "um" })] }, { type: "li", children: [p({ text: "dois" })] }] },
      { type: "ol", children: [{ type: "li", children: [p({ text: "primeiro" })] }] },
    ];
    expect(richTextToText(rich)).toBe("Veja a ajuda (https://x.com/a) ou https://x.com/b\nNome: Ana\n• um\n• dois\n1. primeiro");
  });

  it("answers nothing for an empty or malformed tree", () => {
    expect(richTextToText(undefined)).toBe("");
    expect(richTextToText([p({ text: "  " })])).toBe("");
    expect(bubbleOut({ id: "b", type: "text", content: { type: "richText", richText: [p({ text: "" })] } })).toBeNull();
  });
});

describe("markdown → WhatsApp-style text", () => {
  it("turns **bold**, *italic*, ~~strike~~ and links into the channel's marks", () => {
    expect(markdownToText("**Olá** *Ana*, veja [ajuda](https://x.com) e ~~isso~~ \\*literal\\*")).toBe("*Olá* _Ana_, veja ajuda (https://x.com) e ~isso~ *literal*");
  });
});

describe("bubbles", () => {
  it("sends image, audio and file URLs as media, a hosted video and an embed as links", () => {
    expect(bubbleOut({ id: "i", type: "image", content: { url: "https://x.com/a.png" } })).toEqual({ kind: "media", media: "image", url: "https://x.com/a.png", bubbleId: "i" });
    expect(bubbleOut({ id: "a", type: "audio", content: { url: "https://x.com/a.mp3" } })).toMatchObject({ kind: "media", media: "audio" });
    expect(bubbleOut({ id: "v", type: "video", content: { url: "https://x.com/v.mp4", type: "url" } })).toMatchObject({ kind: "media", media: "video" });
    expect(bubbleOut({ id: "y", type: "video", content: { url: "https://youtu.be/x", type: "youtube" } })).toEqual({ kind: "text", text: "https://youtu.be/x" });
    expect(bubbleOut({ id: "e", type: "embed", content: { url: "https://x.com/form" } })).toEqual({ kind: "text", text: "https://x.com/form" });
    expect(bubbleOut({ id: "n", type: "image", content: {} })).toBeNull();
    expect(bubbleOut({ id: "m", type: "text", content: { type: "markdown", markdown: "**oi**" } })).toEqual({ kind: "text", text: "*oi*" });
  });
});

describe("choices", () => {
  const input = { id: "in1", type: "choice input", items: [{ id: "a", content: "Vendas" }, { id: "b", content: "Suporte" }, { id: "c", content: "" }] };

  it("numbers a choice input's items in a menu and maps a number or the text back to the content", () => {
    const choices = choicesOf(input);
    expect(menuText(choices)).toBe("*1* - Vendas\n*2* - Suporte");
    expect(mapReply(" 2 ", choices)).toBe("Suporte");
    expect(mapReply("vendas", choices)).toBe("Vendas");
    expect(mapReply("9", choices)).toBe("9");
    expect(mapReply("qualquer", null)).toBe("qualquer");
    expect(choicesOf({ id: "t", type: "text input" })).toEqual([]);
  });

  it("tells Typebot's retry of an invalid answer and the flow's end", () => {
    const retry = { messages: [{ id: "in1", type: "text", content: { type: "richText", richText: [p({ text: "Tente de novo" })] } }], input };
    expect(isRetry(retry, "in1")).toBe(true);
    const byText = { messages: [{ id: "x", type: "text", content: { type: "richText", richText: [p({ text: "Invalid message. Please, try again." })] } }], input };
    expect(isRetry(byText, "in1")).toBe(true);
    expect(isRetry({ messages: [{ id: "b1", type: "text", content: { type: "richText", richText: [p({ text: "Você escolheu" })] } }], input: { id: "in2", type: "text input" } }, "in1")).toBe(false);
    expect(isEnd({ messages: [] })).toBe(true);
    expect(isEnd({ messages: [], input })).toBe(false);
    expect(isEnd({ messages: [], clientSideActions: [{ type: "listenForWebhook", expectsDedicatedReply: true }] })).toBe(false);
  });
});
