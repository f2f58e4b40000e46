/**
 * HTML of received mail, made safe to show: an allow-list of formatting tags and attributes
 * (sanitize-html), no scripts, styles sheets, forms, frames or event handlers, links only to
 * http(s)/mailto, and no remote images (a remote image tells the sender the mail was read).
 */
import sanitizeHtml from "sanitize-html";
import { convert } from "html-to-text";

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "col", "colgroup", "dd", "del", "div", "dl", "dt", "em", "font",
    "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "li", "ol", "p", "pre", "q", "s", "small", "span", "strike",
    "strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul",
  ],
  allowedAttributes: {
    // target/rel are set by the transform below, whatever the mail said.
    a: ["href", "title", "target", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    td: ["colspan", "rowspan", "align", "valign"],
    th: ["colspan", "rowspan", "align", "valign"],
    table: ["border", "cellpadding", "cellspacing", "width"],
    font: ["color", "size"],
    "*": ["dir", "lang"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["data", "cid"] },
  allowProtocolRelative: false,
  // Tags outside the list are dropped but their text kept; these go with their content.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "title", "head", "iframe", "object", "embed", "svg", "math", "template"],
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: "_blank", rel: "noopener noreferrer nofollow" } }),
  },
  // Only embedded images stay: a relative or remote src would be fetched by whoever opens the file.
  exclusiveFilter: (frame) => frame.tag === "img" && !/^(data|cid):/i.test(frame.attribs.src ?? ""),
};

export function sanitizeEmailHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** Readable text of (already sanitised) HTML, for mail that has no text part. */
export function htmlToText(safeHtml: string): string {
  return convert(safeHtml, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
      { selector: "img", format: "skip" },
    ],
  }).trim();
}
